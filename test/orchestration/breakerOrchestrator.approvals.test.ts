import { beforeAll, describe, expect, it } from 'vitest';

import { ActionType, HistoryEventType, scheduledLeaves } from '../../sim/durable/replay';
import { BreakerActivity } from '../../src/orchestration/activityNames';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import {
  type Episode,
  failures,
  newEpisode,
  registerBreaker,
  SETTINGS,
  untilAwaitingApproval,
} from './breakerFixture';

beforeAll(registerBreaker);

const approve = (e: Episode, by = 'oncall@example.test', tripId = e.tripId) => {
  e.host.raiseEvent(APPROVAL_EVENT, { tripId, approvedBy: by });
};

/** Timers the orchestrator created that neither fired nor were cancelled: each keeps the instance alive. */
function liveTimers(e: Episode) {
  const last = e.host.episodes.at(-1)!;
  const fired = new Set(
    e.host.history.filter((h) => h.EventType === HistoryEventType.TimerFired).map((h) => h.FireAt),
  );
  return scheduledLeaves(last).filter(
    (a) => a.actionType === ActionType.CreateTimer && !a.isCanceled && !fired.has(a.fireAt),
  );
}

describe('breaker orchestration: approvals', () => {
  it('ignores a duplicate approval: one HALF_OPEN, one enable', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    approve(e, 'first@example.test');
    approve(e, 'second@example.test');
    await e.host.run();
    expect(e.status()).toMatchObject({ phase: 'probation', approvedBy: 'first@example.test' });
    expect(e.triggerSwitch.calls.filter((c) => !c.disabled)).toHaveLength(1);
    expect(e.activities(BreakerActivity.transition)).toHaveLength(1);
    // Another approval later, during probation, changes nothing either.
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'third@example.test' });
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect((e.host.output as BreakerStatus).phase).toBe('closed');
    expect(e.triggerSwitch.calls.filter((c) => !c.disabled)).toHaveLength(1);
  });

  it('ignores an approval for another (old) trip and keeps waiting, reminders on schedule', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    const reminderDue = e.host.pendingTimers[0]!.fireAt;
    await e.host.deliver(APPROVAL_EVENT, { tripId: 'an-old-trip', approvedBy: 'someone@example.test' });
    await e.host.deliver(APPROVAL_EVENT, { nonsense: true });
    expect(e.status().phase).toBe('awaiting-approval');
    expect(e.triggerSwitch.calls).toHaveLength(1);
    expect(e.host.logs.filter((l) => l.message.includes('ignored an approval'))).toHaveLength(2);
    // The reminder is still due when it was: ignoring an event does not reset the schedule.
    expect(e.host.pendingTimers.filter((t) => t.fireAt === reminderDue).length).toBeGreaterThan(0);
    await e.host.fireNextTimer();
    expect(e.status().remindersSent).toBe(1);

    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({ phase: 'probation', approvedBy: 'oncall@example.test' });
  });

  it('race (durable-js 577): approval and reminder timer in one episode, event first', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    approve(e);
    e.host.advanceToNextTimer(); // the reminder fires in the same episode, after the event
    await e.host.run();
    expect(e.status().phase).toBe('probation');
    expect(e.status().remindersSent).toBe(0);
    expect(e.subjects().filter((s) => s.includes('Reminder'))).toHaveLength(0);
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.host.failure).toBeUndefined();
  });

  it('race (durable-js 577): timer first, approval arriving while the reminder is being sent', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    e.host.advanceToNextTimer();
    approve(e); // same episode, after the TimerFired: the timer wins, the event completes the same wait task
    await e.host.run();
    expect(e.subjects().filter((s) => s.includes('Reminder'))).toHaveLength(1);
    // Not lost: the approval raised during the reminder is honoured without a second click.
    expect(e.status()).toMatchObject({ phase: 'probation', remindersSent: 1 });
    expect(e.triggerSwitch.calls.filter((c) => !c.disabled)).toHaveLength(1);
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect((e.host.output as BreakerStatus).phase).toBe('closed');
  });

  it('race (durable-js 577): the losing reminder timer is cancelled and firing later changes nothing', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    const reminderDue = e.host.pendingTimers[0]!.fireAt;
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    // The reminder was cancelled; only the probation timer is live.
    expect(liveTimers(e).map((t) => Date.parse(t.fireAt!))).toEqual([
      e.host.now + SETTINGS.probationSeconds * 1000,
    ]);
    // The cancelled reminder (due earlier than the end of probation) still fires, as in the extension.
    expect(reminderDue).toBeLessThan(e.host.now + SETTINGS.probationSeconds * 1000);
    e.host.advance(reminderDue - e.host.now);
    await e.host.run();
    expect(e.host.failure).toBeUndefined();
    expect(e.status()).toMatchObject({ phase: 'probation', remindersSent: 0 });
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.subjects().filter((s) => s.includes('Reminder'))).toHaveLength(0);
    expect(liveTimers(e)).toEqual([]);
  });

  it('ends as superseded when probation failures trip a new episode', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    const again = await e.store.record(failures(3, 'p'), e.host.now);
    expect(again).toMatchObject({ tripped: true, state: 'OPEN' });
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.host.output).toMatchObject({ phase: 'superseded', tripId: e.tripId });
    expect((e.host.output as BreakerStatus).detail).toContain(again.tripId);
    const state = await e.store.getState();
    expect(state).toMatchObject({ state: 'OPEN', tripId: again.tripId });
    expect(e.subjects().some((s) => s.includes('back to normal'))).toBe(false);
  });
});
