import { RestError } from '@azure/core-rest-pipeline';
import { TaskCancelledError } from 'cockatiel';
import { describe, expect, it } from 'vitest';

import { classifyError } from '../../src/processing/classifyError';
import { PoisonEventError, TransientSinkError } from '../../src/processing/errors';

const rest = (statusCode?: number, code?: string) => new RestError('x', { statusCode, code });
const systemError = (code: string) => Object.assign(new Error(code), { code });

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
