import { describe, expect, it } from 'vitest';

import { redactSecrets } from '../../src/kernel/redactSecrets';
import { closed } from '../../src/notify/messages/closed';
import { reminder } from '../../src/notify/messages/reminder';
import { renderMessage } from '../../src/notify/messages/renderMessage';
import { resumed } from '../../src/notify/messages/resumed';
import { tripNotice } from '../../src/notify/messages/tripNotice';
import { noticeInput, NOW, trip } from './fixtures';

const LINK = 'https://func-bw.azurewebsites.net/api/approve?token=abc.def';
const permissionFailure = {
  kind: 'failed',
  disabled: true,
  code: 'TRIGGER_SWITCH_PERMISSION',
  retryable: false,
  message:
    'ARM refused ... assign it the "Website Contributor" role scoped to the function app (/subscriptions/s/.../sites/func-bw).',
} as const;

describe('operator messages', () => {
  it('trip notice carries every fact operators need, in text and HTML', () => {
    const m = tripNotice(noticeInput(LINK));
    for (const part of [m.text, m.html]) {
      expect(part).toContain('ProcessSensorEvents');
      expect(part).toContain(trip.tripId);
      expect(part).toContain('2026-01-15 11:59:00 UTC'); // tripped at
      expect(part).toContain('137'); // failures in window
      expect(part).toContain('12'); // dead letters
      expect(part).toContain('3:1041'); // a sample entry
      expect(part).toContain('verified by reading it back');
      expect(part).toContain('2026-01-16 12:00:00 UTC'); // link expiry
    }
    expect(m.text).toContain(LINK);
    expect(m.html).toContain(`href="${LINK}"`);
    expect(m.to).toEqual(['oncall@example.com']);
  });

  it('says when the trigger could not be disabled, and which role is missing', () => {
    const m = tripNotice(noticeInput(LINK, { switchOutcome: permissionFailure }));
    expect(m.text).toContain('could NOT be disabled (TRIGGER_SWITCH_PERMISSION)');
    expect(m.text).toContain('Website Contributor');
    expect(m.text).toContain('soft OPEN state still holds the stream');
  });

  it('says local mode relies on the soft OPEN state, and an unknown dead-letter count', () => {
    const m = tripNotice(
      noticeInput(LINK, { switchOutcome: { kind: 'soft', disabled: true }, deadLetterCount: undefined }),
    );
    expect(m.text).toContain('soft OPEN state holds the stream');
    expect(m.text).toContain('unknown');
  });

  it('keeps subjects short, single-line and scannable', () => {
    const subjects = [
      tripNotice(noticeInput(LINK)).subject,
      reminder({ ...noticeInput(LINK), reminderNumber: 2, maxReminders: 3 }).subject,
      resumed({
        to: ['a@b.test'],
        functionName: 'ProcessSensorEvents',
        tripId: trip.tripId,
        approvedBy: 'oncall@example.com',
        approvedAt: NOW,
        switchOutcome: { kind: 'switched', disabled: false },
        probation: { seconds: 300, threshold: 10 },
      }).subject,
      closed({ to: ['a@b.test'], functionName: 'ProcessSensorEvents', tripId: trip.tripId, closedAt: NOW })
        .subject,
    ];
    expect(subjects).toEqual([
      '[Breakwater] ProcessSensorEvents stopped: approval needed (trip 5d6f7a8b)',
      '[Breakwater] Reminder 2/3: ProcessSensorEvents still stopped (trip 5d6f7a8b)',
      '[Breakwater] ProcessSensorEvents resumed, on probation (trip 5d6f7a8b)',
      '[Breakwater] ProcessSensorEvents back to normal (trip 5d6f7a8b closed)',
    ]);
    for (const s of subjects) expect(s.length).toBeLessThanOrEqual(80);
  });

  it('reminder says n of max and repeats the link', () => {
    const last = reminder({ ...noticeInput(LINK), reminderNumber: 3, maxReminders: 3 });
    expect(last.text).toContain('Reminder 3 of 3');
    expect(last.text).toContain('last reminder');
    expect(last.text).toContain(LINK);
  });

  it('resumed names the approver and the probation', () => {
    const m = resumed({
      to: ['a@b.test'],
      functionName: 'ProcessSensorEvents',
      tripId: trip.tripId,
      approvedBy: 'Ada <ada@example.com>',
      approvedAt: NOW,
      switchOutcome: { kind: 'switched', disabled: false },
      probation: { seconds: 300, threshold: 10 },
    });
    expect(m.text).toContain('Ada <ada@example.com>');
    expect(m.html).toContain('Ada &lt;ada@example.com&gt;');
    expect(m.text).toContain('next 5 min');
    expect(m.text).toContain('more than 10 failures');
    expect(m.text).toContain('re-enabled through Azure Resource Manager');
  });

  it('closed says probation passed', () => {
    expect(closed({ to: ['a@b.test'], functionName: 'F', tripId: 't1', closedAt: NOW }).text).toContain(
      'Probation passed',
    );
  });

  it('cannot be made to inject headers or script links', () => {
    const m = renderMessage({ to: ['a@b.test'], subject: 'a\r\nBcc: evil@x.test', title: 't', blocks: [] });
    expect(m.subject).toBe('a Bcc: evil@x.test');
    expect(() =>
      renderMessage({
        to: ['a@b.test'],
        subject: 's',
        title: 't',
        blocks: [{ kind: 'link', label: 'x', url: 'javascript:alert(1)', note: '' }],
      }),
    ).toThrow(/non-http/);
  });

  it('masks secret shapes that SDK error messages may quote', () => {
    expect(
      redactSecrets(
        'AccountKey=abc; SharedAccessKey=def https://x/api/f?code=hostkey&x=1 Bearer eyJ.a.b redis://u:pw@h:6379 ?sig=zz',
      ),
    ).toBe(
      'AccountKey=***; SharedAccessKey=*** https://x/api/f?code=***&x=1 Bearer *** redis://u:***@h:6379 ?sig=***',
    );
  });
});

describe('short trip ids in subjects', () => {
  it('tell two trips of the same minute apart', async () => {
    const { shortTripId } = await import('../../src/notify/messages/formatting');
    expect(shortTripId('t1767225620000-69fb66e6a058')).not.toBe(shortTripId('t1767225650000-0c1d2e3f4a5b'));
    expect(shortTripId('trip-1')).toBe('trip-1');
  });
});
