import type { BreakerConfig } from '../config/appConfig';

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
