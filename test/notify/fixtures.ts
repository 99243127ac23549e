import type { TripRecord } from '../../src/breaker/breakerStore';
import type { TripNoticeInput } from '../../src/notify/messages/tripNotice';

export const SIGNING_KEY = 'test-signing-key-0123456789abcdef0123456789';
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export const trip: TripRecord = {
  tripId: 'trip-7f3a9c2e-1b44-4d2a-9a51-0c3e5d6f7a8b',
  cause: 'threshold',
  openedAt: NOW - 60_000,
  failuresInWindow: 137,
  sample: [
    { eventKey: '3:1041', kind: 'transient', message: 'ETIMEDOUT writing to HomeActivity' },
    { eventKey: '3:1042', kind: 'permanent', message: 'bad reading <script>alert("x")</script> & more' },
    {
      eventKey: '5:77',
      kind: 'transient',
      message: 'connect failed DefaultEndpointsProtocol=https;AccountName=st;AccountKey=c2VjcmV0LWtleQ==;',
    },
  ],
};

export function noticeInput(approvalUrl: string, overrides: Partial<TripNoticeInput> = {}): TripNoticeInput {
  return {
    to: ['oncall@example.com'],
    functionName: 'ProcessSensorEvents',
    trip,
    deadLetterCount: 12,
    switchOutcome: { kind: 'switched', disabled: true },
    approvalUrl,
    linkExpiresAt: NOW + 24 * 3_600_000,
    ...overrides,
  };
}
