import { describe, expect, it } from 'vitest';

import { issueApprovalLink } from '../../src/approval/issueApprovalLink';
import type { HeldBacklog } from '../../src/hub/heldBacklog';
import { makeBreakerMessages } from '../../src/notify/email/breakerMessages';
import { heldView } from '../../src/operator/safetyView';
import { NOW, SIGNING_KEY, trip } from './fixtures';

const messages = makeBreakerMessages({
  approvers: ['oncall@example.com'],
  issueLink: (subject, now) =>
    issueApprovalLink(
      { signingKeys: [SIGNING_KEY], linkTtlHours: 24, publicBaseUrl: 'https://func-bw.azurewebsites.net' },
      subject,
      now,
    ),
  probation: { seconds: 300, threshold: 10 },
  environmentName: 'prod-eu',
});

const held: HeldBacklog = {
  known: true,
  at: NOW,
  partitions: [
    { partitionId: '0', held: 1200, oldestEnqueuedAt: NOW - 75 * 60_000 },
    { partitionId: '1', held: 0, oldestEnqueuedAt: undefined },
    { partitionId: '2', held: 34, oldestEnqueuedAt: NOW - 10 * 60_000 },
  ],
  total: 1234,
  oldestEnqueuedAt: NOW - 75 * 60_000,
  retentionEndsAt: NOW - 75 * 60_000 + 24 * 3_600_000,
  oldestUnknown: undefined,
};
const base = { tripId: trip.tripId, functionName: 'ProcessSensorEvents', at: new Date(NOW).toISOString() };
const disable = { kind: 'switched', disabled: true } as const;

describe('approval emails say whether approving is safe', () => {
  it('a reminder carries the downstream probe line and the held backlog, and names the environment', () => {
    const probed = {
      ...trip,
      probe: { at: NOW - 30_000, ok: false, error: '503 from HomeActivity', since: NOW - 61 * 60_000 },
    };
    const m = messages(
      { ...base, kind: 'reminder', reminder: 1, maxReminders: 3, disable },
      { trip: probed, deadLetterCount: 2, held, now: NOW },
    );
    expect(m.subject).toMatch(/^\[Breakwater · prod-eu\] Reminder 1\/3: ProcessSensorEvents still stopped/);
    expect(m.text).toContain(
      'still failing: 503 from HomeActivity, since 10:59 UTC (last probe 11:59:30 UTC)',
    );
    expect(m.text).toContain(
      '1,234 events held in 2 of 3 partitions; oldest 1 h 15 min old (enqueued 2026-01-15 10:45 UTC); retention drops it in 22 h 45 min (at 2026-01-16 10:45 UTC)',
    );
  });

  it('with the retention guard on, the deadline is the first loss and the guard saves before it', () => {
    const guarded = { ...held, guardSavesAt: NOW - 75 * 60_000 + 20 * 3_600_000 };
    const m = messages(
      { ...base, kind: 'reminder', reminder: 1, maxReminders: 3, disable },
      { trip, deadLetterCount: 0, held: guarded, now: NOW },
    );
    expect(m.text).toContain(
      'the first loss in 22 h 45 min (at 2026-01-16 10:45 UTC): saved before the deadline by the retention guard at 2026-01-16 06:45 UTC unless approved',
    );
    expect(heldView(guarded, NOW)).toMatchObject({
      timeToFirstLossMs: (22 * 60 + 45) * 60_000,
      guardSavesAt: '2026-01-16T06:45:00.000Z',
    });
  });

  it('a reminder subject says the hours left before the first loss, then that the guard is saving them', () => {
    const reminderWith = (h: HeldBacklog) =>
      messages(
        { ...base, kind: 'reminder', reminder: 2, maxReminders: 3, disable },
        { trip, deadLetterCount: 0, held: h, now: NOW },
      );
    expect(reminderWith(held).subject).toMatch(/still stopped \(trip \w+\): first loss in 22 h$/);
    const saving = { ...held, guardSavesAt: NOW - 60_000 };
    const m = reminderWith(saving);
    expect(m.subject).toMatch(/: first loss in 22 h, the retention guard is saving the held events$/);
    expect(m.text).toContain('the retention guard is saving them to blobs now');
  });

  it('the trip notice says when the hub could not be read, instead of failing', () => {
    const m = messages(
      { ...base, kind: 'tripped', failuresInWindow: 120, disable },
      {
        trip,
        deadLetterCount: 0,
        held: { known: false, at: NOW, reason: 'connect ECONNREFUSED 10.0.0.4:5671' },
        now: NOW,
      },
    );
    expect(m.subject).toMatch(/^\[Breakwater · prod-eu\] ProcessSensorEvents stopped/);
    expect(m.text).toContain('unknown: connect ECONNREFUSED 10.0.0.4:5671');
    expect(m.text).toContain('downstream not probed yet');
  });
});
