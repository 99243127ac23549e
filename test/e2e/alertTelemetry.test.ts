/**
 * The telemetry the alert rules read (src/kernel/telemetryNames.ts), emitted by the real functions
 * of a world on Redis with ARM: the watchdog's heartbeat in each situation a rule looks for, the held
 * batch, and the store outage.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { invokeRpc, type LogLine } from '../../sim/host/fakeFunctionsCore';
import {
  type BreakwaterWorld,
  DISABLED_SETTING,
  FUNCTION_KEY,
  FUNCTION_NAME,
} from '../../sim/world/breakwaterWorld';
import { parseTelemetryLine, telemetry } from '../../src/kernel/telemetryNames';
import { isCircuitOpenError } from '../../src/processing/errors';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';
import { RedisWorld } from './worlds/redisWorld';

let redisWorld: RedisWorld;
let world: BreakwaterWorld;
beforeAll(async () => {
  redisWorld = await RedisWorld.create(inject('storageConnectionString'));
  world = redisWorld.world;
});
afterAll(() => redisWorld.close());

const records = (lines: readonly string[], name: string) =>
  lines.flatMap((l) => {
    const parsed = parseTelemetryLine(l);
    return parsed?.name === name ? [parsed.fields] : [];
  });

/**
 * One watchdog tick, as the host runs it; returns its heartbeat. The tick itself may fail (store
 * down) after the heartbeat is written.
 */
async function heartbeat(): Promise<Record<string, unknown>> {
  const logs: LogLine[] = [];
  await invokeRpc('BreakerWatchdog', {
    trigger: { json: JSON.stringify({ isPastDue: false }) },
    inputData: world.durableClientInput('BreakerWatchdog'),
    logs,
  }).catch(() => undefined);
  const beats = records(
    logs.map((l: LogLine) => l.message),
    telemetry.heartbeat.name,
  );
  expect(beats).toHaveLength(1);
  return beats[0] ?? {};
}

describe('telemetry for the alert rules', () => {
  it('heartbeat of a healthy app: CLOSED, trigger enabled, no dead letters, store reachable', async () => {
    await world.drainDeadLetters(); // creates the queue, as the Bicep does in Azure
    expect(await heartbeat()).toEqual({
      state: 'CLOSED',
      tripId: null,
      openSeconds: 0,
      triggerDisabled: false,
      deadLetters: 0,
      storeReachable: true,
      // This world has no hub behind its connection (HEARTBEAT_READS_BACKLOG false).
      waitingEvents: null,
      stalledSeconds: null,
      maintenanceSeconds: null,
      // No retention guard in this world (RETENTION_GUARD_ENABLED false): no figures from it.
      timeToFirstLossSeconds: null,
      savedEvents: null,
    });
  });

  it('heartbeat shows a trigger disabled while the breaker is CLOSED', async () => {
    world.arm.setSettings({ ...world.arm.settings(), [DISABLED_SETTING]: 'true' });
    expect(await heartbeat()).toMatchObject({ state: 'CLOSED', triggerDisabled: true });
    world.arm.setSettings({ ...world.arm.settings(), [DISABLED_SETTING]: 'false' });
  });

  it('in maintenance: the heartbeat says for how long, and the watchdog leaves the trigger disabled', async () => {
    const post = (body: object) =>
      fetch(`${world.http.baseUrl}/api/breaker/maintenance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-functions-key': FUNCTION_KEY },
        body: JSON.stringify(body),
      });
    expect((await post({ action: 'enter', reason: 'alert drill' })).status).toBe(200);
    // The disabled-while-closed and stalled rules skip heartbeats with maintenanceSeconds set (0 is set:
    // the later tests need this world's clock where it is).
    expect(await heartbeat()).toMatchObject({
      state: 'CLOSED',
      triggerDisabled: true,
      maintenanceSeconds: 0,
    });
    expect(world.isDisabled()).toBe(true);
    expect((await post({ action: 'leave' })).status).toBe(200);
    expect(await heartbeat()).toMatchObject({ triggerDisabled: false, maintenanceSeconds: null });
  });

  it('an OPEN breaker: heartbeat with how long it has been open, and a held batch with its age', async () => {
    const tripId = await world.runtime.breakerStore.openManually('alert drill', world.clock.now());
    world.clock.advance(600_000);
    expect(await heartbeat()).toMatchObject({ state: 'OPEN', tripId, openSeconds: 600 });

    const batch = rpcEventBatch([jsonBody(reading({ homeId: 'home-held' }))], { partitionId: '3' });
    const logs: LogLine[] = [];
    const run = invokeRpc(FUNCTION_NAME, {
      ...batch,
      inputData: world.durableClientInput(FUNCTION_NAME),
      logs,
    });
    await expect(run).rejects.toSatisfy(isCircuitOpenError);
    const held = records(
      logs.map((l) => l.message),
      telemetry.batchHeld.name,
    );
    expect(held).toEqual([{ reason: 'circuit-open', events: 1, heldSeconds: 600, partitionId: '3' }]);
  });

  it('the store down: heartbeat says unreachable, and processing logs BreakerStoreUnavailable', async () => {
    await redisWorld.stopRedis();
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      world.clock.advance(5_000);
      const batch = rpcEventBatch([jsonBody(reading({ homeId: 'home-ok' }))], { partitionId: '1' });
      await invokeRpc(FUNCTION_NAME, { ...batch, inputData: world.durableClientInput(FUNCTION_NAME) });
      const lines = warnings.mock.calls.map((c) => String(c[0]));
      expect(records(lines, telemetry.storeUnavailable.name)).toEqual([
        { operation: 'getState', failedCalls: 1 },
      ]);
      expect(await heartbeat()).toMatchObject({ state: null, tripId: null, storeReachable: false });
    } finally {
      warnings.mockRestore();
      await redisWorld.restartRedisEmpty();
    }
  });
});
