import * as df from 'durable-functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import type { BreakerGate } from '../../src/breaker/breakerGate';
import { makeOnTripped } from '../../src/orchestration/onTripped';
import { BREAKER_ORCHESTRATOR, breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { startBreakerOrchestration } from '../../src/orchestration/startBreakerOrchestration';
import { makeBatchProcessor } from '../../src/processing/batchProcessor';
import { TransientSinkError } from '../../src/sinks/errors';
import { runWatchdog } from '../../src/watchdog/runWatchdog';
import { makeWatchdogHandler } from '../../src/watchdog/watchdogHandler';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';
import { FN, newEpisode, registerBreaker, T0 } from './breakerFixture';

let server: DurableClientServer;
beforeAll(async () => {
  registerBreaker();
  server = await startDurableClientServer();
});
afterAll(() => server.close());

const client = () => df.getClient(server.context());
const starts = () => server.calls.filter((c) => c.startsWith('POST') && c.includes('/orchestrators/'));

describe('starting the breaker orchestration', () => {
  it('starts one instance whose id derives from the trip, and a second start leaves it alone', async () => {
    const e = await newEpisode();
    const before = starts().length;
    const first = await startBreakerOrchestration(client(), e.input);
    expect(first).toEqual({ started: true, instanceId: breakerInstanceId(e.tripId), restarted: false });
    const instance = server.instances.get(first.instanceId)!;
    expect(instance).toMatchObject({ name: BREAKER_ORCHESTRATOR, input: e.input });
    // The instance really runs: it disabled the trigger and waits for approval.
    expect(server.host(first.instanceId).customStatus).toMatchObject({ phase: 'awaiting-approval' });

    const second = await startBreakerOrchestration(client(), e.input);
    expect(second).toEqual({ started: false, instanceId: first.instanceId, runtimeStatus: 'Running' });
    expect(starts().length - before).toBe(1);
    expect(e.triggerSwitch.calls).toHaveLength(1);
  });

  it('never replaces a completed instance; only the watchdog restarts a failed one', async () => {
    const e = await newEpisode();
    const id = breakerInstanceId(e.tripId);
    server.putInstance(id, BREAKER_ORCHESTRATOR, 'Completed');
    expect(await startBreakerOrchestration(client(), e.input, { restartStopped: true })).toMatchObject({
      started: false,
      runtimeStatus: 'Completed',
    });
    server.putInstance(id, BREAKER_ORCHESTRATOR, 'Failed');
    expect(await startBreakerOrchestration(client(), e.input)).toMatchObject({ started: false });
    expect(await startBreakerOrchestration(client(), e.input, { restartStopped: true })).toEqual({
      started: true,
      instanceId: id,
      restarted: true,
    });
  });

  it('two starters at once: the one that loses sees the winner instead of failing', async () => {
    const e = await newEpisode();
    server.refuseDuplicates = true;
    try {
      const results = await Promise.all([
        startBreakerOrchestration(client(), e.input),
        startBreakerOrchestration(client(), e.input),
      ]);
      expect(results.filter((r) => r.started)).toHaveLength(1);
      expect(results.filter((r) => !r.started)).toEqual([
        { started: false, instanceId: breakerInstanceId(e.tripId), runtimeStatus: 'Running' },
      ]);
      expect(e.triggerSwitch.calls).toHaveLength(1);
    } finally {
      server.refuseDuplicates = false;
    }
  });

  it('onTripped starts it through the invocation’s durable client and logs the outcome', async () => {
    const e = await newEpisode();
    const context = server.context(FN);
    const logs: unknown[][] = [];
    context.log = (...args: unknown[]) => logs.push(args);
    await makeOnTripped(FN)(context)({ tripId: e.tripId, failuresInWindow: 6 });
    await makeOnTripped(FN)(context)({ tripId: e.tripId, failuresInWindow: 6 });
    expect(server.instances.get(breakerInstanceId(e.tripId))?.input).toEqual(e.input);
    expect(logs.map((l) => String(l[0]))).toEqual([
      `breaker orchestration ${breakerInstanceId(e.tripId)} started`,
      `breaker orchestration ${breakerInstanceId(e.tripId)} already exists (Running): not started again`,
    ]);
  });

  it('a failed start is logged by the processor (batch held), and the watchdog starts it later', async () => {
    const e = await newEpisode();
    const gate: BreakerGate = {
      check: () => Promise.resolve({ open: false, tripId: undefined }),
      recordFailures: () =>
        Promise.resolve({ open: true, tripId: e.tripId, tripped: true, failuresInWindow: 6 }),
    };
    const processBatch = makeBatchProcessor({
      functionName: FN,
      sink: {
        write: () => Promise.reject(new TransientSinkError('downstream offline')),
        probe: () => Promise.reject(new TransientSinkError('downstream offline')),
      },
      deadLetters: { write: () => Promise.reject(new Error('not reached: the batch is held')) },
      breaker: gate,
      clock: { now: () => T0 },
      retry: { maxAttempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
      batchDeadlineMs: 10_000,
    });
    const errors: string[] = [];
    const logger = {
      log: () => undefined,
      warn: () => undefined,
      error: (m: unknown) => errors.push(String(m)),
    };
    server.failStarts(1);
    await expect(
      processBatch([receivedEvent(jsonBody(reading()), 1)], {
        invocationId: 'inv',
        logger,
        finalAttempt: false,
        onTripped: makeOnTripped(FN)(server.context(FN)),
      }),
    ).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
    expect(
      errors.some((m) => m.startsWith(`could not start the breaker orchestration for trip ${e.tripId}`)),
    ).toBe(true);
    expect(server.instances.has(breakerInstanceId(e.tripId))).toBe(false);

    const deps = { store: e.store, functionName: FN, graceMs: 120_000 };
    const warnings: string[] = [];
    const wlog = {
      log: () => undefined,
      error: () => undefined,
      warn: (m: unknown) => warnings.push(String(m)),
    };
    // Within the grace period the watchdog leaves the start to the trigger.
    expect(await runWatchdog({ ...deps, clock: { now: () => T0 + 60_000 } }, client(), wlog)).toEqual({
      action: 'none',
      reason: 'grace',
    });
    const later = { ...deps, clock: { now: () => T0 + 180_000 } };
    expect(await runWatchdog(later, client(), wlog)).toMatchObject({
      action: 'checked',
      result: { started: true },
    });
    expect(warnings).toEqual([
      expect.stringContaining(`trip ${e.tripId} is OPEN without a live orchestration: started breaker-`),
    ]);
    expect(server.host(breakerInstanceId(e.tripId)).customStatus).toMatchObject({
      phase: 'awaiting-approval',
    });
    // Idempotent: the next tick finds it running.
    expect(await runWatchdog(later, client(), wlog)).toMatchObject({
      result: { started: false, runtimeStatus: 'Running' },
    });
  });

  it('the watchdog does nothing while the breaker is closed', async () => {
    const e = await newEpisode();
    expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 1)).toBe(true);
    const result = await runWatchdog(
      { store: e.store, functionName: FN, graceMs: 0, clock: { now: () => T0 + 10 * 60_000 } },
      client(),
      { log: () => undefined, warn: () => undefined, error: () => undefined },
    );
    expect(result).toEqual({ action: 'none', reason: 'closed' });
  });

  it('the watchdog timer handler starts through its own durable client, and logs then rethrows a failure', async () => {
    const timer = {
      isPastDue: false,
      schedule: { adjustForDST: false },
      scheduleStatus: { last: '', next: '', lastUpdated: '' },
    };
    const e = await newEpisode();
    const handler = makeWatchdogHandler(() => ({
      store: e.store,
      functionName: FN,
      graceMs: 0,
      clock: { now: () => T0 + 60_000 },
    }));
    await handler(timer, server.context('BreakerWatchdog'));
    expect(server.host(breakerInstanceId(e.tripId)).customStatus).toMatchObject({
      phase: 'awaiting-approval',
    });

    const other = await newEpisode();
    const failing = makeWatchdogHandler(() => ({
      store: other.store,
      functionName: FN,
      graceMs: 0,
      clock: { now: () => T0 + 60_000 },
    }));
    const context = server.context('BreakerWatchdog');
    const errors: string[] = [];
    context.error = (...args: unknown[]) => {
      errors.push(String(args[0]));
    };
    server.failStarts(1);
    await expect(failing(timer, context)).rejects.toThrow();
    expect(errors).toEqual([expect.stringMatching(/^watchdog: could not check the breaker orchestration/)]);
    // The next tick succeeds.
    await failing(timer, server.context('BreakerWatchdog'));
    expect(server.instances.has(breakerInstanceId(other.tripId))).toBe(true);
  });
});
