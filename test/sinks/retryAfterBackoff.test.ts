import { ConstantBackoff } from 'cockatiel';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { HttpStatusError } from '../../src/sinks/errors';
import { attemptWithRetry, makeEventRetryPolicy } from '../../src/sinks/eventRetry';
import { honourRetryAfter, retryAfterMsOf } from '../../src/sinks/retryAfterBackoff';

const throttled = (ms: number | undefined) => new HttpStatusError('slow down', 429, ms);
const context = (error: Error, attempt = 1) => ({
  attempt,
  result: { error },
  signal: new AbortController().signal,
});

describe('retryAfterMsOf', () => {
  it('reads retryAfterMs from the error or its causes, and ignores nonsense', () => {
    expect(retryAfterMsOf(throttled(1500))).toBe(1500);
    expect(retryAfterMsOf(new Error('wrapped', { cause: throttled(200) }))).toBe(200);
    expect(retryAfterMsOf(throttled(undefined))).toBeUndefined();
    expect(retryAfterMsOf(Object.assign(new Error('x'), { retryAfterMs: -5 }))).toBeUndefined();
    expect(retryAfterMsOf('text')).toBeUndefined();
  });
});

describe('honourRetryAfter', () => {
  it('waits at least as long as the failure asked, and the backoff otherwise', () => {
    const backoff = honourRetryAfter(new ConstantBackoff(50));
    const first = backoff.next(context(throttled(3000)));
    expect(first.duration).toBe(3000);
    expect(first.next(context(throttled(10), 2)).duration).toBe(50);
    expect(first.next(context(new Error('no hint'), 2)).duration).toBe(50);
  });
});

describe('the per-event retry policy', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does not retry a 429 before its Retry-After has passed', async () => {
    vi.useFakeTimers();
    const policy = makeEventRetryPolicy({ maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 });
    let calls = 0;
    const done = attemptWithRetry(policy, 60_000, () =>
      ++calls === 1 ? Promise.reject(throttled(2000)) : Promise.resolve('applied'),
    );
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toBe(2);
    expect(await done).toEqual({ ok: true, value: 'applied', attempts: 2 });
  });
});
