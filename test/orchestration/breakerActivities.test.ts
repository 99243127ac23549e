import { describe, expect, it } from 'vitest';

import { verifyApprovalToken } from '../../src/approval/approvalToken';
import { TriggerSwitchTransientError } from '../../src/control/errors';
import { silentLogger } from '../../src/kernel/logger';
import { makeBreakerActivities } from '../../src/orchestration/breakerActivities';
import { FN, newEpisode, SETTINGS, SIGNING_KEY, T0 } from './breakerFixture';

describe('breaker activities (against the Table store)', () => {
  it('reports whether the trip is the current OPEN episode', async () => {
    const e = await newEpisode();
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    expect(await acts.openTrip(e.tripId)).toEqual({
      status: 'open',
      state: 'OPEN',
      currentTripId: e.tripId,
      settings: { maxReminders: 2, reminderMinutes: 3, probationSeconds: 600, channels: ['email'] },
    });
    expect((await acts.openTrip('another-trip')).status).toBe('stale');
    await e.store.transition('OPEN', 'HALF_OPEN', e.tripId, T0 + 1);
    expect((await acts.openTrip(e.tripId)).status).toBe('half-open');
  });

  it('moves the state idempotently: a retried transition that already happened reports success', async () => {
    const e = await newEpisode();
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    const toHalfOpen = {
      from: 'OPEN',
      to: 'HALF_OPEN',
      tripId: e.tripId,
      approvedBy: 'a@example.test',
    } as const;
    expect(await acts.transition(toHalfOpen, silentLogger)).toBe(true);
    expect(await acts.transition(toHalfOpen, silentLogger)).toBe(true);
    expect(await acts.transition({ ...toHalfOpen, tripId: 'another-trip' }, silentLogger)).toBe(false);
    const trip = (await e.store.history(5)).find((t) => t.tripId === e.tripId);
    expect(trip).toMatchObject({ approvedBy: 'a@example.test' });
  });

  it('reads the state and the failures in the window; resetting empties the window', async () => {
    const e = await newEpisode();
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    // The host's clock (1 s after the trip) is the activities' clock.
    expect(await acts.readState()).toEqual({ state: 'OPEN', tripId: e.tripId, failuresInWindow: 6 });
    await acts.resetWindow();
    expect((await acts.readState()).failuresInWindow).toBe(0);
  });

  it('switches the trigger: soft in local mode; a transient failure is thrown for the retry policy', async () => {
    const e = await newEpisode();
    const local = makeBreakerActivities({ ...e.deps, controlMode: 'local' }, SETTINGS);
    expect(await local.disableTrigger(FN, e.tripId)).toEqual({ kind: 'soft', disabled: true });
    // Enabling happens after the approval (HALF_OPEN); while OPEN it is refused without a write.
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    expect(await acts.enableTrigger(FN, e.tripId, silentLogger)).toEqual({
      skipped: `the store is OPEN with trip ${e.tripId}`,
    });
    expect(await e.store.transition('OPEN', 'HALF_OPEN', e.tripId, T0 + 1_000)).toBe(true);
    e.triggerSwitch.failNext(new TriggerSwitchTransientError('ARM answered 503', 503));
    await expect(acts.enableTrigger(FN, e.tripId, silentLogger)).rejects.toThrow(/503/);
  });

  it('emails the trip notice with the recorded error sample, dead letters and a valid approval link', async () => {
    const e = await newEpisode();
    const acts = makeBreakerActivities(e.deps, SETTINGS);
    await acts.sendNotice(
      'email',
      {
        kind: 'tripped',
        tripId: e.tripId,
        functionName: FN,
        at: new Date(T0).toISOString(),
        failuresInWindow: 6,
        disable: { kind: 'switched', disabled: true },
      },
      silentLogger,
    );
    const [message] = e.email.sent;
    expect(message!.to).toEqual(['oncall@example.test']);
    expect(message!.text).toMatch(/e5 \(transient\): boom 5/);
    expect(message!.text).toMatch(/Dead letters:\s+7/);
    const token = /token=([^\s&"]+)/.exec(message!.text)?.[1];
    const verified = verifyApprovalToken(decodeURIComponent(token ?? ''), [SIGNING_KEY], T0 + 60_000);
    expect(verified).toMatchObject({ ok: true, payload: { tripId: e.tripId, functionName: FN } });
    expect(message!.html).toContain('<a href="https://breakwater.example.test/api/approve?token=');
  });
});
