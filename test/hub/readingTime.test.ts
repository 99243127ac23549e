import { describe, expect, it } from 'vitest';

import { decodeEvent } from '../../src/hub/decodeReading';
import { isFutureReadingError, isPoisonEventError } from '../../src/hub/errors';
import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

const ENQUEUED = '2026-03-01T12:00:00.000Z';
const enqueuedMs = Date.parse(ENQUEUED);
const rule = { maxFutureSkewMs: 300_000, now: () => enqueuedMs + 1_000 };

function event(occurredAt: string, enqueuedTimeUtc: string | null = ENQUEUED): ReceivedEvent {
  return {
    ...receivedEvent(jsonBody(reading({ occurredAt })), 7),
    enqueuedTimeUtc: enqueuedTimeUtc ?? undefined,
  };
}
const ahead = (ms: number) => new Date(enqueuedMs + ms).toISOString();

function refusal(e: ReceivedEvent, r = rule): Error {
  try {
    decodeEvent(e, r);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the reading to be refused');
}

describe('a reading dated ahead of its event (clock skew)', () => {
  it('accepts a reading a minute ahead of its enqueued time, and one from the past', () => {
    expect(decodeEvent(event(ahead(60_000)), rule).occurredAt).toBe(ahead(60_000));
    expect(decodeEvent(event('2020-01-01T00:00:00Z'), rule).homeId).toBe('home-1');
  });

  it('accepts a reading exactly at the bound and refuses one a millisecond beyond it', () => {
    expect(decodeEvent(event(ahead(300_000)), rule).occurredAt).toBe(ahead(300_000));
    const error = refusal(event(ahead(300_001)));
    expect(isFutureReadingError(error)).toBe(true);
    expect(error.message).toMatch(/is 300\.001 s ahead of its enqueued time 2026-03-01T12:00:00\.000Z/);
  });

  it('reads occurredAt with its offset (+14:00)', () => {
    // 12:04 UTC written as 02:04 the next day at +14:00: four minutes ahead, accepted.
    expect(decodeEvent(event('2026-03-02T02:04:00+14:00'), rule).occurredAt).toBe(
      '2026-03-02T02:04:00+14:00',
    );
    expect(isFutureReadingError(refusal(event('2026-03-02T02:06:00+14:00')))).toBe(true);
  });

  it('refuses a reading 30 days ahead, saying how far and naming the setting', () => {
    const error = refusal(event(ahead(30 * 86_400_000)));
    expect(isFutureReadingError(error)).toBe(true);
    expect(isPoisonEventError(error)).toBe(false);
    expect(error.message).toBe(
      'occurredAt 2026-03-31T12:00:00.000Z is 30 days ahead of its enqueued time 2026-03-01T12:00:00.000Z; ' +
        'at most 300 s of clock skew is accepted (READING_MAX_FUTURE_SKEW_SECONDS)',
    );
  });

  it('refuses a reading about 8,000 years ahead (the last second of year 9999)', () => {
    const error = refusal(event('9999-12-31T23:59:59Z'));
    expect(isFutureReadingError(error)).toBe(true);
    expect(error.message).toMatch(/^occurredAt 9999-12-31T23:59:59\.000Z is 7974 years ahead/);
  });

  it('refuses year 10000 and impossible dates as poison: not a timestamp the schema accepts', () => {
    for (const occurredAt of ['+010000-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z']) {
      const error = refusal(event(occurredAt));
      expect(isPoisonEventError(error), occurredAt).toBe(true);
      expect(error.message).toMatch(/occurredAt: /);
    }
  });

  it('without a readable enqueued time, measures against the processing clock instead', () => {
    for (const missing of [null, 'not a time']) {
      // 5 min + 1 s ahead of the enqueued time but exactly 5 min ahead of now: accepted.
      expect(decodeEvent(event(ahead(301_000), missing), rule).homeId).toBe('home-1');
      const error = refusal(event(ahead(301_001), missing));
      expect(isFutureReadingError(error)).toBe(true);
      expect(error.message).toMatch(
        /ahead of the processing clock \(no enqueued time\) 2026-03-01T12:00:01\.000Z/,
      );
    }
  });

  it('with a bound of 0 refuses anything dated after its enqueued time', () => {
    const strict = { ...rule, maxFutureSkewMs: 0 };
    expect(decodeEvent(event(ENQUEUED), strict).occurredAt).toBe(ENQUEUED);
    expect(isFutureReadingError(refusal(event(ahead(1)), strict))).toBe(true);
  });
});
