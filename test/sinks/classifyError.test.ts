import { RestError } from '@azure/core-rest-pipeline';
import { TaskCancelledError } from 'cockatiel';
import { describe, expect, it } from 'vitest';

import { PoisonEventError } from '../../src/hub/errors';
import { classifyError, classifyFailure } from '../../src/sinks/classifyError';
import { SinkConflictError, TransientSinkError } from '../../src/sinks/errors';

const rest = (statusCode?: number, code?: string) => new RestError('x', { statusCode, code });
const systemError = (code: string) => Object.assign(new Error(code), { code });

describe('a request the storage service refused as the app built it', () => {
  const odata = (statusCode: number, code: string) =>
    Object.assign(rest(statusCode), { details: { odataError: { code } } });

  it.each([
    ['a Table refusal (odata.error code)', odata(400, 'InvalidInput')],
    ['a transaction refusal (code)', rest(400, 'CommandsInBatchActOnDifferentPartitions')],
    ['a body too large', rest(413, 'RequestBodyTooLarge')],
    ['a queue message too large', rest(400, 'MessageTooLarge')],
  ])('holds %s like an outage, never dead-letters the event for it', (_, error) => {
    expect(classifyFailure(error)).toEqual({ rule: 'request-invalid', kind: 'permanent', scope: 'outage' });
  });

  it('still names the event for any other 400 or 413', () => {
    expect(classifyFailure(odata(400, 'SomethingAboutThisEvent')).scope).toBe('event');
    expect(classifyFailure(rest(413)).scope).toBe('event');
  });
});

describe('classifyError', () => {
  it.each([408, 429, 500, 502, 503, 504])('treats HTTP %i as transient', (status) => {
    expect(classifyError(rest(status))).toBe('transient');
  });

  it.each([400, 401, 403, 404, 409, 412, 413])('treats HTTP %i as permanent', (status) => {
    expect(classifyError(rest(status))).toBe('permanent');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'REQUEST_SEND_ERROR'])(
    'treats %s as transient',
    (code) => {
      expect(classifyError(systemError(code))).toBe('transient');
      expect(classifyError(rest(undefined, code))).toBe('transient');
    },
  );

  it('treats aborts, timeouts and the retry deadline as transient', () => {
    expect(classifyError(Object.assign(new Error('a'), { name: 'AbortError' }))).toBe('transient');
    expect(classifyError(new TaskCancelledError())).toBe('transient');
    expect(classifyError(new TransientSinkError('busy'))).toBe('transient');
  });

  it('follows causes, so a wrapped network error stays transient', () => {
    expect(classifyError(new Error('wrapped', { cause: systemError('ECONNRESET') }))).toBe('transient');
  });

  it('treats poison events, bugs and non-errors as permanent', () => {
    expect(classifyError(new PoisonEventError('bad'))).toBe('permanent');
    expect(classifyError(new TypeError('undefined is not a function'))).toBe('permanent');
    expect(classifyError('a string')).toBe('permanent');
    expect(classifyError(undefined)).toBe('permanent');
  });
});

// The one list of outage-like failures (hold the batch) and failures about the event (dead-letter).
describe('classifyFailure: outage-like or about this event', () => {
  it.each([408, 429, 500, 502, 503, 504])('HTTP %i is outage-like and retried', (status) => {
    expect(classifyFailure(rest(status))).toMatchObject({ scope: 'outage', kind: 'transient' });
  });

  it.each([401, 403, 407])(
    'HTTP %i (authentication refused) is outage-like, not retried per event',
    (status) => {
      expect(classifyFailure(rest(status))).toMatchObject({
        scope: 'outage',
        kind: 'permanent',
        rule: 'http-auth-refused',
      });
    },
  );

  it.each([400, 404, 409, 412, 413, 422])(
    'HTTP %i names this event: not retried, dead-lettered',
    (status) => {
      expect(classifyFailure(rest(status))).toMatchObject({ scope: 'event', kind: 'permanent' });
    },
  );

  it('an HTTP sink error with only `statusCode` (and `retryAfterMs`) is classified by its status', () => {
    const throttled = Object.assign(new Error('slow down'), { statusCode: 429, retryAfterMs: 2_000 });
    expect(classifyFailure(throttled)).toMatchObject({ scope: 'outage', kind: 'transient' });
    expect(classifyFailure(Object.assign(new Error('no'), { statusCode: 422 }))).toMatchObject({
      scope: 'event',
    });
  });

  it('network errors, timeouts, the batch deadline and "busy" are outage-like', () => {
    for (const error of [
      systemError('ECONNREFUSED'),
      rest(undefined, 'REQUEST_SEND_ERROR'),
      Object.assign(new Error('t'), { name: 'TimeoutError' }),
      new TaskCancelledError(),
      new TransientSinkError('busy'),
      new Error('wrapped', { cause: systemError('ETIMEDOUT') }),
    ])
      expect(classifyFailure(error).scope).toBe('outage');
  });

  it('poison and an unsettled write conflict are about the event; the conflict is still retried', () => {
    expect(classifyFailure(new PoisonEventError('bad'))).toMatchObject({ scope: 'event', kind: 'permanent' });
    expect(classifyFailure(new SinkConflictError('row kept changing'))).toMatchObject({
      scope: 'event',
      kind: 'transient',
    });
  });

  it('an unrecognised error (a bug) is held like an outage and not retried per event', () => {
    expect(classifyFailure(new TypeError('x is not a function'))).toEqual({
      scope: 'outage',
      kind: 'permanent',
      rule: 'unrecognised',
    });
  });
});
