import { RestError } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';

import { attemptWithRetry, makeEventRetryPolicy } from '../../src/sinks/eventRetry';

const policy = (maxAttempts: number) =>
  makeEventRetryPolicy({ maxAttempts, initialDelayMs: 1, maxDelayMs: 2 });
const unavailable = () => new RestError('busy', { statusCode: 503 });

describe('attemptWithRetry', () => {
  it('retries transient failures up to the attempt limit, counting the first try', async () => {
    let calls = 0;
    const result = await attemptWithRetry(policy(4), 10_000, () => {
      calls++;
      return Promise.reject(unavailable());
    });
    expect(result).toMatchObject({ ok: false, attempts: 4 });
    expect(calls).toBe(4);
  });

  it('succeeds as soon as an attempt succeeds', async () => {
    let calls = 0;
    const result = await attemptWithRetry(policy(4), 10_000, () =>
      ++calls < 3 ? Promise.reject(unavailable()) : Promise.resolve('done'),
    );
    expect(result).toEqual({ ok: true, value: 'done', attempts: 3 });
  });

  it('does not retry a permanent failure', async () => {
    let calls = 0;
    const result = await attemptWithRetry(policy(4), 10_000, () => {
      calls++;
      return Promise.reject(new RestError('bad', { statusCode: 400 }));
    });
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(calls).toBe(1);
  });

  it('gives up at the deadline, aborting the operation in flight', async () => {
    let aborted = false;
    const result = await attemptWithRetry(
      policy(4),
      20,
      (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    );
    expect(result.ok).toBe(false);
    expect(aborted).toBe(true);
  });

  it('leaves the signal of a write that returned unaborted: the deadline stops only writes in flight', async () => {
    let handed: AbortSignal | undefined;
    const result = await attemptWithRetry(policy(4), 10_000, (signal) => {
      handed = signal;
      return Promise.resolve('done');
    });
    expect(result.ok).toBe(true);
    // Aborting a finished write's signal would cost every write an AbortError and the HTTP
    // client's abort path for a request that is already over.
    expect(handed?.aborted).toBe(false);
  });
});
