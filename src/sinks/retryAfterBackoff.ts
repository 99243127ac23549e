import type { IBackoff, IBackoffFactory, IRetryBackoffContext } from 'cockatiel';

type RetryBackoff = IBackoffFactory<IRetryBackoffContext<unknown>>;

/**
 * The wait a failure asks for (`retryAfterMs`, e.g. from HTTP `Retry-After` on a 429), following
 * causes like the classifier does; undefined when it asks for none.
 */
export function retryAfterMsOf(error: unknown): number | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return undefined;
    const { retryAfterMs, cause } = current as { retryAfterMs?: unknown; cause?: unknown };
    if (typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0)
      return retryAfterMs;
    current = cause;
  }
  return undefined;
}

/**
 * Wraps a backoff so a retry never comes sooner than the failure asked for: the delay is the longer
 * of the backoff's and the error's `retryAfterMs`. The batch deadline still bounds the wait.
 */
export function honourRetryAfter(inner: RetryBackoff): RetryBackoff {
  return {
    next(context): IBackoff<IRetryBackoffContext<unknown>> {
      const step = inner.next(context);
      const asked = 'error' in context.result ? retryAfterMsOf(context.result.error) : undefined;
      return { duration: Math.max(step.duration, asked ?? 0), next: (c) => honourRetryAfter(step).next(c) };
    },
  };
}
