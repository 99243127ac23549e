import { describe, expect, it } from 'vitest';

import { decodeReading } from '../../src/hub/decodeReading';
import { isPoisonEventError } from '../../src/hub/errors';
import { jsonBody, reading } from '../support/sensorEvents';

function rejection(body: Buffer): string {
  try {
    decodeReading(body);
  } catch (error) {
    expect(isPoisonEventError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a PoisonEventError');
}

describe('decodeReading', () => {
  it('accepts a valid sensor reading', () => {
    const r = reading({ batteryPercent: 80, occurredAt: '2026-01-01T10:00:00+02:00' });
    expect(decodeReading(jsonBody(r))).toEqual(r);
  });

  it.each([
    ['an empty body', Buffer.alloc(0), /body is empty/],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x00, 0x41]), /not UTF-8 text \(4 bytes\)/],
    ['text that is not JSON', Buffer.from('{"homeId": '), /not JSON/],
    ['a JSON array', jsonBody([reading()]), /not a sensor reading/],
    ['an unknown sensor kind', jsonBody({ ...reading(), kind: 'toaster' }), /kind: /],
    ['a missing field', jsonBody({ ...reading(), homeId: undefined }), /homeId: /],
    ['an unexpected field', jsonBody({ ...reading(), extra: 1 }), /Unrecognized key/],
    ['a timestamp without zone', jsonBody({ ...reading(), occurredAt: '2026-01-01 10:00' }), /occurredAt: /],
    ['a battery over 100 %', jsonBody({ ...reading(), batteryPercent: 101 }), /batteryPercent: /],
    [
      'an id with a slash (would break table keys)',
      jsonBody({ ...reading(), sensorId: 'a/b' }),
      /sensorId: /,
    ],
  ])('rejects %s as poison, saying why', (_name, body, message) => {
    expect(rejection(body)).toMatch(message);
  });
});
