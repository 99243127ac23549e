/**
 * A drain of the saved events that fails after the approval (the downstream still down through the
 * activity's retries) must not end the episode with the trigger off: the orchestration stays live, tries
 * the drain again on a durable timer, tells the operators once what happens, and enables the trigger
 * only once the saved events are written. Before this, the instance ended Completed, the store stayed
 * HALF_OPEN and nothing would ever enable the trigger (the watchdog restarts only failed instances).
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { BreakerActivity } from '../../src/orchestration/activityNames';
import { DRAIN_RETRY_MINUTES } from '../../src/orchestration/breakerOrchestrator';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import {
  FN,
  freshStore,
  MINUTE,
  newEpisode,
  registerBreakerWith,
  SETTINGS,
  untilAwaitingApproval,
} from './breakerFixture';

beforeAll(() => {
  registerBreakerWith({ ...SETTINGS, drainSaved: true });
});

/** A drain that fails while `down` is set, then writes `saved` events once. */
function scriptedDrain(saved: number) {
  const d = {
    down: true,
    calls: 0,
    drained: 0,
    drain: () => {
      d.calls++;
      if (d.down) return Promise.reject(new Error('downstream answered 503'));
      d.drained += saved;
      return Promise.resolve({ drained: saved, dead: 0 });
    },
  };
  return d;
}

/** Fires timers until the orchestration calls the drain `n` more times (retries of the activity included). */
async function untilDrainCalls(e: Awaited<ReturnType<typeof newEpisode>>, d: { calls: number }, n: number) {
  const target = d.calls + n;
  for (let i = 0; i < 50 && d.calls < target; i++) await e.host.fireNextTimer();
  expect(d.calls).toBeGreaterThanOrEqual(target);
}

/** Fires timers (the host fires them up to a few seconds early; waits re-arm) until the instance ends. */
async function untilSettled(e: Awaited<ReturnType<typeof newEpisode>>) {
  for (let i = 0; i < 20 && e.host.runtimeStatus === 'Running'; i++) await e.host.fireNextTimer();
}

describe('breaker orchestration: a failed drain of the saved events', () => {
  it('stays live, retries on a durable timer with growing waits, and enables once the events are written', async () => {
    const d = scriptedDrain(5);
    const e = await newEpisode(() => ({ drainSaved: d.drain }));
    await untilAwaitingApproval(e);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    // The first drain, through the activity's own retries.
    for (let i = 0; i < SETTINGS.retry.maxAttempts; i++) await e.host.fireNextTimer();
    expect(d.calls).toBe(SETTINGS.retry.maxAttempts);

    expect(e.host.runtimeStatus).toBe('Running');
    // One line, bounded: the worker's stack that a failed activity's message carries is cut off.
    expect(e.status().drainError).toBe('attempt 1: downstream answered 503');
    expect(e.triggerSwitch.disabled.get(FN)).toBe(true);
    expect((await e.store.getState()).state).toBe('HALF_OPEN');
    // Told once, with what really happens next.
    const told = e.email.sent.filter((m) => /saved before the hub's retention/.test(m.text));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(/first in 1 min, then at most every 15 min/);
    // The next attempt waits on a durable timer of DRAIN_RETRY_MINUTES[0].
    expect(e.host.pendingTimers.map((t) => t.fireAt - e.host.now)).toContain(DRAIN_RETRY_MINUTES[0] * MINUTE);

    // Still down for a second round: the wait doubles, and nobody is emailed again.
    await untilDrainCalls(e, d, SETTINGS.retry.maxAttempts);
    for (let i = 0; i < 10 && !e.status().drainError?.startsWith('attempt 2'); i++)
      await e.host.fireNextTimer();
    expect(e.status().drainError).toBe('attempt 2: downstream answered 503');
    expect(e.host.pendingTimers.map((t) => t.fireAt - e.host.now)).toContain(DRAIN_RETRY_MINUTES[1] * MINUTE);
    expect(e.email.sent.filter((m) => /saved before the hub's retention/.test(m.text))).toHaveLength(1);
    expect(e.activities(BreakerActivity.enableTrigger)).toHaveLength(0);

    // The downstream is back: the drain writes the saved events, then the trigger is enabled.
    d.down = false;
    await untilDrainCalls(e, d, 1);
    expect(d.drained).toBe(5);
    expect(e.triggerSwitch.disabled.get(FN)).toBe(false);
    expect(e.status()).toMatchObject({ phase: 'probation', savedDrained: 5 });
    expect(e.status().drainError).toBeUndefined();
    expect(e.subjects().some((s) => /resumed/i.test(s))).toBe(true);
  });

  it('a newer trip or a forced reset while it waits to drain again ends the episode without enabling', async () => {
    const d = scriptedDrain(1);
    const e = await newEpisode(() => ({ drainSaved: d.drain }));
    await untilAwaitingApproval(e);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    for (let i = 0; i < SETTINGS.retry.maxAttempts; i++) await e.host.fireNextTimer();
    expect(e.host.runtimeStatus).toBe('Running');
    // An operator forces the breaker closed meanwhile (the reset also enables the trigger itself).
    expect(await e.store.transition('HALF_OPEN', 'CLOSED', e.tripId, e.host.now)).toBe(true);
    await untilSettled(e);
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.status()).toMatchObject({ phase: 'superseded' });
    expect(e.status().detail).toMatch(/while draining, the store became CLOSED/);
    expect(e.activities(BreakerActivity.enableTrigger)).toHaveLength(0);
  });

  it('a store that lost every trip (Redis restarted empty) still drains, then enables', async () => {
    const d = scriptedDrain(3);
    const e = await newEpisode(() => ({ drainSaved: d.drain }));
    await untilAwaitingApproval(e);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    for (let i = 0; i < SETTINGS.retry.maxAttempts; i++) await e.host.fireNextTimer();
    // As Redis restarting without persistence: the store reads CLOSED with no trip.
    Object.assign(e.deps, { store: freshStore() });
    await untilDrainCalls(e, d, SETTINGS.retry.maxAttempts);
    expect(e.host.runtimeStatus).toBe('Running');
    expect(e.triggerSwitch.disabled.get(FN)).toBe(true);
    d.down = false;
    await untilDrainCalls(e, d, 1);
    await untilSettled(e);
    expect(d.drained).toBe(3);
    expect(e.triggerSwitch.disabled.get(FN)).toBe(false);
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.status()).toMatchObject({ phase: 'closed' });
  });
});
