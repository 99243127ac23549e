import type { OrchestrationContext } from 'durable-functions';
import * as df from 'durable-functions';
import { beforeAll, describe, expect, it } from 'vitest';

import { DurableHost } from '../../sim/durable/durableHost';
import { timerDueAt } from '../../sim/durable/timerDelivery';
import { resetRegistrations } from '../../sim/host/fakeFunctionsCore';

let flips = 0;

beforeAll(registerProbes);

function registerProbes() {
  df.app.activity('HostProbe_Echo', { handler: (input: unknown) => input });
  // Deliberately wrong: which activity it calls depends on a process-wide counter, not on the history.
  df.app.orchestration('HostProbe_NonDeterministic', function* (context: OrchestrationContext) {
    yield context.df.callActivity('HostProbe_Echo', flips++ % 2 === 0 ? 'a' : 'b');
    yield context.df.createTimer(new Date(context.df.currentUtcDateTime.getTime() + 1_000));
    return 'done';
  });
  df.app.orchestration('HostProbe_Timer', function* (context: OrchestrationContext) {
    const echoed: unknown = yield context.df.callActivity('HostProbe_Echo', { n: 1 });
    yield context.df.createTimer(new Date(context.df.currentUtcDateTime.getTime() + 60_000));
    return { echoed, at: context.df.currentUtcDateTime.toISOString() };
  });
}

const host = (orchestrator: string) =>
  new DurableHost({ orchestrator, instanceId: 'probe-1', input: null, startAt: Date.UTC(2026, 0, 1) });

describe('the test durable host', () => {
  it('runs activities, fires timers from its clock, and ends with the orchestrator output', async () => {
    const h = host('HostProbe_Timer');
    await h.run();
    expect(h.runtimeStatus).toBe('Running');
    // Due a second before its FireAt, as the Azure Storage backend delivers it (timerDelivery.ts).
    expect(h.pendingTimers).toEqual([
      { id: 1, fireAt: Date.UTC(2026, 0, 1, 0, 1), dueAt: Date.UTC(2026, 0, 1, 0, 0, 59) },
    ]);
    await h.fireNextTimer();
    expect(h.runtimeStatus).toBe('Completed');
    expect(h.output).toEqual({ echoed: { n: 1 }, at: '2026-01-01T00:00:59.000Z' });
    expect(h.history.map((e) => e.EventType)).toEqual([12, 0, 4, 13, 12, 5, 10, 13, 12, 11, 13]);
  });

  it('refuses a replay that schedules something other than what the history holds', async () => {
    await expect(host('HostProbe_NonDeterministic').run()).rejects.toThrow(/non-deterministic replay/);
  });

  it('waits for the app to be loaded again before it replays or runs an activity (a worker restart)', async () => {
    let loaded: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (loaded = resolve));
    const h = new DurableHost({
      orchestrator: 'HostProbe_Timer',
      instanceId: 'probe-reload',
      input: null,
      startAt: Date.UTC(2026, 0, 1),
      appReady: () => ready,
    });
    // The new worker has not registered its functions yet: nothing may be dispatched to it.
    resetRegistrations();
    const run = h.run();
    registerProbes();
    loaded();
    await run;
    expect(h.runtimeStatus).toBe('Running');
    expect(h.activityRuns).toMatchObject([{ name: 'HostProbe_Echo', outcome: { ok: true } }]);
  });
});

describe('when durable timers complete (the Azure Storage backend, measured on the real extension)', () => {
  it('completes a timer up to a second before its FireAt, and one due within a second at once', () => {
    expect(timerDueAt(0, 3_000)).toBe(2_000);
    expect(timerDueAt(0, 3_500)).toBe(3_000);
    expect(timerDueAt(0, 999)).toBe(0);
    expect(timerDueAt(0, 0)).toBe(0);
  });
});
