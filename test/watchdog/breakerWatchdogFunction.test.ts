/**
 * The registered trigger and watchdog with a controllable clock: when the trigger cannot start the
 * orchestration (a durable storage hiccup), it logs that and holds the batch; the watchdog starts the
 * orchestration once the grace period has passed, and only once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import { bindingOfType, invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { WATCHDOG_GRACE_MS } from '../../src/composition/orchestrationRuntime';
import { createRuntime, installRuntime } from '../../src/composition/runtime';
import { parseTelemetryLine } from '../../src/kernel/telemetryNames';
import { TransientSinkError } from '../../src/sinks/errors';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';

const FN = 'ProcessSensorEvents';
const WATCHDOG = 'BreakerWatchdog';
let server: DurableClientServer;
let now = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  server = await startDurableClientServer();
  const env = testAppEnv('orchwd', {
    BREAKER_THRESHOLD: '1',
    BREAKER_PROBATION_THRESHOLD: '1',
    BREAKER_STATE_CACHE_MS: '0',
    TRIGGER_CONTROL: 'local',
    EMAIL_PROVIDER: 'log',
    EVENT_MAX_ATTEMPTS: '1',
  });
  installRuntime(
    createRuntime(env, {
      clock: { now: () => now },
      // The downstream is offline for the whole test.
      decorateSink: () => ({
        write: () => Promise.reject(new TransientSinkError('downstream offline')),
        probe: () => Promise.reject(new TransientSinkError('downstream offline')),
      }),
    }),
  );
  await import('../../src/functions/processSensorEvents');
  await import('../../src/functions/breakerOrchestration');
  await import('../../src/functions/breakerWatchdog');
});
afterAll(() => server.close());

const tick = () =>
  invokeRpc(WATCHDOG, {
    trigger: { json: JSON.stringify({ Schedule: { AdjustForDST: true }, IsPastDue: false }) },
    inputData: [server.rpcInput(bindingOfType(WATCHDOG, 'durableClient').name)],
  });

describe('breaker watchdog function', () => {
  it('starts the orchestration the trigger could not start, after the grace period, once', async () => {
    expect((await tick()).logs.filter((l) => l.level === 'warning')).toEqual([]);

    server.failStarts(1);
    const bodies = [0, 1].map((i) => jsonBody(reading({ homeId: 'home-down', sensorId: `door-${i}` })));
    const batch = {
      ...rpcEventBatch(bodies),
      inputData: [server.rpcInput(bindingOfType(FN, 'durableClient').name)],
    };
    // The batch is held; the failed start only costs the orchestration its immediate start.
    await expect(invokeRpc(FN, batch)).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
    expect(server.instances.size).toBe(0);
    expect(server.calls.filter((c) => c.includes('/orchestrators/'))).toHaveLength(1);

    now += WATCHDOG_GRACE_MS / 2;
    await tick();
    expect(server.instances.size).toBe(0);

    now += WATCHDOG_GRACE_MS;
    const started = await tick();
    // Besides its heartbeat line for the alert rules (test/e2e/alertTelemetry.test.ts):
    const humanLines = started.logs.map((l) => l.message).filter((m) => parseTelemetryLine(m) === undefined);
    expect(humanLines).toEqual([
      expect.stringMatching(/^watchdog: trip \S+ is OPEN without a live orchestration: started breaker-/),
      // While OPEN every tick also probes the downstream, which is still offline.
      expect.stringMatching(
        /^watchdog: still failing: downstream offline, since \d\d:\d\d UTC \(last probe /,
      ),
    ]);
    const [instanceId] = [...server.instances.keys()];
    expect(server.host(instanceId!).customStatus).toMatchObject({ phase: 'awaiting-approval' });

    now += 60_000;
    await tick();
    expect(server.calls.filter((c) => c.startsWith('POST') && c.includes('/orchestrators/'))).toHaveLength(2);
  });
});
