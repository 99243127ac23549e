import { beforeAll, describe, expect, it } from 'vitest';

import { readableTrips } from '../../src/breaker/breakerStore';
import { BreakerActivity, sendActivityName } from '../../src/orchestration/activityNames';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import { FN, MINUTE, newEpisode, registerBreaker, SETTINGS, untilAwaitingApproval } from './breakerFixture';

beforeAll(registerBreaker);

describe('breaker orchestration: the approval path', () => {
  it('disables, emails, waits, and on approval resumes with probation, then closes', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.triggerSwitch.calls).toEqual([{ functionName: FN, disabled: true, ok: true }]);
    expect(e.email.sent).toHaveLength(1);
    expect(e.subjects()[0]).toMatch(/stopped: approval needed/);
    expect(e.email.sent[0]!.text).toMatch(/https:\/\/breakwater\.example\.test\/api\/approve\?token=/);
    expect(e.status()).toMatchObject({
      phase: 'awaiting-approval',
      tripId: e.tripId,
      disable: { kind: 'switched', disabled: true },
    });

    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({
      phase: 'probation',
      approvedBy: 'oncall@example.test',
      enable: { kind: 'switched', disabled: false },
    });
    expect((await e.store.getState()).state).toBe('HALF_OPEN');
    expect(e.triggerSwitch.calls.map((c) => c.disabled)).toEqual([true, false]);
    expect(e.subjects()[1]).toMatch(/resumed, on probation/);

    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect(e.host.runtimeStatus).toBe('Completed');
    expect((e.host.output as BreakerStatus).phase).toBe('closed');
    expect((await e.store.getState()).state).toBe('CLOSED');
    expect(e.subjects()[2]).toMatch(/back to normal/);
    const trip = readableTrips(await e.store.history(5)).find((t) => t.tripId === e.tripId);
    expect(trip).toMatchObject({ approvedBy: 'oncall@example.test' });
    expect(trip?.closedAt).toBeGreaterThan(0);
    // The order of the activities is the episode's story.
    expect(e.host.activityRuns.map((r) => r.name)).toEqual([
      BreakerActivity.openTrip,
      BreakerActivity.disableTrigger,
      sendActivityName('email'),
      BreakerActivity.transition,
      BreakerActivity.resetWindow,
      BreakerActivity.enableTrigger,
      sendActivityName('email'),
      BreakerActivity.readState,
      BreakerActivity.transition,
      sendActivityName('email'),
    ]);
  });

  it('sends a bounded number of reminders, then waits silently with no timer', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.host.pendingTimers).toHaveLength(1);
    await e.host.fireNextTimer();
    await e.host.fireNextTimer();
    expect(e.subjects().filter((s) => s.includes('Reminder'))).toEqual([
      expect.stringMatching(/Reminder 1\/2/),
      expect.stringMatching(/Reminder 2\/2/),
    ]);
    expect(e.status()).toMatchObject({ phase: 'awaiting-approval', remindersSent: 2 });
    expect(e.host.pendingTimers).toHaveLength(0);
    e.host.advance(24 * 60 * MINUTE);
    await e.host.run();
    expect(e.email.sent).toHaveLength(3);

    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'late@example.test' });
    expect(e.status().phase).toBe('probation');
  });
});
