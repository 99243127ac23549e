import type { BreakerStateName, WindowBucket } from './breakerStore';

/** The numbers a breaker store decides with; every adapter applies the same policy. */
export interface BreakerPolicy {
  /** CLOSED trips when failures in the window exceed this. */
  readonly threshold: number;
  /** HALF_OPEN (probation) trips when failures in the window exceed this. */
  readonly probationThreshold: number;
  readonly windowMs: number;
  readonly bucketMs: number;
  /** Trip records kept; older ones are dropped. */
  readonly historyLimit: number;
}

export const DEFAULT_HISTORY_LIMIT = 50;

export function breakerPolicyFrom(config: BreakerConfig): BreakerPolicy {
  return {
    threshold: config.threshold,
    probationThreshold: config.probationThreshold,
    windowMs: config.windowSeconds * 1000,
    bucketMs: config.bucketSeconds * 1000,
    historyLimit: DEFAULT_HISTORY_LIMIT,
  };
}

/** Number of buckets in the window (config guarantees the bucket divides the window). */
export const bucketsInWindow = (policy: BreakerPolicy): number =>
  Math.floor(policy.windowMs / policy.bucketMs);

/** Index of the bucket holding `now`. */
export const bucketOf = (policy: BreakerPolicy, now: number): number => Math.floor(now / policy.bucketMs);

/**
 * The window as every store shows it: one entry per bucket, oldest first, ending with the bucket of
 * `now`; `counts` maps bucket index to failures (missing: none).
 */
export function windowOf(
  policy: BreakerPolicy,
  now: number,
  counts: ReadonlyMap<number, number>,
): readonly WindowBucket[] {
  const buckets = bucketsInWindow(policy);
  const current = bucketOf(policy, now);
  return Array.from({ length: buckets }, (_, i) => {
    const bucket = current - buckets + 1 + i;
    return { start: bucket * policy.bucketMs, failures: counts.get(bucket) ?? 0 };
  });
}

/** Failures in a window as `windowBuckets` returns it. */
export const failuresIn = (window: readonly WindowBucket[]): number =>
  window.reduce((sum, b) => sum + b.failures, 0);

/** The failures a state tolerates before it trips (CLOSED: threshold, HALF_OPEN: probation); OPEN none. */
export const limitFor = (policy: BreakerPolicy, state: BreakerStateName): number | undefined =>
  state === 'CLOSED' ? policy.threshold : state === 'HALF_OPEN' ? policy.probationThreshold : undefined;

export interface BreakerConfig {
  readonly store: 'table' | 'redis';
  readonly redisConnection: string | undefined;
  readonly threshold: number;
  readonly windowSeconds: number;
  readonly bucketSeconds: number;
  readonly probationThreshold: number;
  readonly probationSeconds: number;
  readonly stateCacheMs: number;
  readonly tableName: string;
}
