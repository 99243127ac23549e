import {
  ExponentialBackoff,
  handleWhen,
  retry,
  type RetryPolicy,
  timeout,
  TimeoutStrategy,
  wrap,
} from 'cockatiel';

import { isTransient } from './classifyError';
import { honourRetryAfter } from './retryAfterBackoff';

export interface EventRetryOptions {
  /** Total attempts per event, the first included. */
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export type AttemptResult<T> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly error: unknown; readonly attempts: number };

/**
 * Bounded per-event retry: cockatiel's exponential backoff with decorrelated jitter, retrying only
 * errors `classifyError` calls transient, never sooner than a `Retry-After` asked. Cockatiel counts
 * retries, not attempts, hence the `- 1`.
 */
export function makeEventRetryPolicy(options: EventRetryOptions): RetryPolicy {
  return retry(handleWhen(isTransient), {
    maxAttempts: options.maxAttempts - 1,
    // A throttled downstream's Retry-After (error.retryAfterMs) wins over a shorter backoff delay.
    backoff: honourRetryAfter(
      new ExponentialBackoff({ initialDelay: options.initialDelayMs, maxDelay: options.maxDelayMs }),
    ),
  });
}

/**
 * Runs `operation` under the retry policy, giving up when `remainingMs` runs out: the deadline aborts
 * the signal handed to the operation and any backoff delay, and the result counts as a transient failure.
 */
export async function attemptWithRetry<T>(
  policy: RetryPolicy,
  remainingMs: number,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<AttemptResult<T>> {
  let attempts = 0;
  // Not aborted on return: the signal of a write that is over has nothing left to stop, and aborting it
  // would cost every write an AbortError and the HTTP client's abort path for a finished request.
  const deadline = timeout(Math.max(1, remainingMs), {
    strategy: TimeoutStrategy.Aggressive,
    abortOnReturn: false,
  });
  try {
    const value = await wrap(deadline, policy).execute(({ signal }) => {
      attempts++;
      return operation(signal);
    });
    return { ok: true, value, attempts };
  } catch (error) {
    return { ok: false, error, attempts };
  }
}
