/**
 * The heartbeat's consumer lag and stall, read by the real watchdog function from a hub behind the
 * Event Hubs peer and the checkpoints the host model writes to Azurite: what the consumer-lag and
 * trigger-stalled alert rules read while the breaker is CLOSED.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { invokeRpc, type LogLine } from '../../sim/host/fakeFunctionsCore';
import { parseTelemetryLine, telemetry } from '../../src/kernel/telemetryNames';
import { HeldBacklogWorld } from '../e2e/worlds/heldBacklogWorld';

let w: HeldBacklogWorld;
beforeAll(async () => {
  w = await HeldBacklogWorld.create(inject('storageConnectionString'));
}, 60_000);
afterAll(() => w.close());

async function heartbeat(): Promise<Record<string, unknown>> {
  const logs: LogLine[] = [];
  await invokeRpc('BreakerWatchdog', {
    trigger: { json: JSON.stringify({ isPastDue: false }) },
    inputData: w.world.durableClientInput('BreakerWatchdog'),
    logs,
  });
  const beats = logs.flatMap((l) => {
    const parsed = parseTelemetryLine(l.message);
    return parsed?.name === telemetry.heartbeat.name ? [parsed.fields] : [];
  });
  expect(beats).toHaveLength(1);
  return beats[0] ?? {};
}

const waiting = () => w.truth().reduce((sum, t) => sum + t.held, 0);

describe('the heartbeat while CLOSED: consumer lag and a trigger that stopped consuming', () => {
  it('a consumer that keeps up: nothing waiting, nothing stalled', async () => {
    w.send(20, 4, 'healthy');
    for (let s = 0; s < 6 && waiting() > 0; s++) await w.second();
    expect(waiting()).toBe(0);
    expect(await heartbeat()).toMatchObject({ state: 'CLOSED', waitingEvents: 0, stalledSeconds: 0 });
  });

  it('a trigger that silently stopped: the waiting events, and how long no partition has moved', async () => {
    // The host delivers nothing any more (the platform's trigger stopped), the breaker stays CLOSED.
    w.send(30, 6, 'stalled');
    expect(await heartbeat()).toMatchObject({ state: 'CLOSED', waitingEvents: 30, stalledSeconds: 0 });
    w.world.clock.advance(10 * 60_000);
    expect(await heartbeat()).toMatchObject({
      state: 'CLOSED',
      triggerDisabled: false,
      waitingEvents: 30,
      stalledSeconds: 600,
    });
  });

  it('the trigger consuming again: the lag drains and the stall ends', async () => {
    for (let s = 0; s < 10 && waiting() > 0; s++) await w.second();
    expect(waiting()).toBe(0);
    expect(await heartbeat()).toMatchObject({ waitingEvents: 0, stalledSeconds: 0 });
  });
});
