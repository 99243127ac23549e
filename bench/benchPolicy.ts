import type { BreakerPolicy } from '../src/breaker/breakerPolicy';

/** The production defaults (30 s window of 1 s buckets) with a threshold the bench never reaches. */
export const benchPolicy: BreakerPolicy = {
  threshold: 1_000_000_000,
  probationThreshold: 10,
  windowMs: 30_000,
  bucketMs: 1_000,
  historyLimit: 50,
};

export const benchName = (label: string) => `Bench${label}${Math.random().toString(36).slice(2, 8)}`;

export const oneFailure = [{ eventKey: 'p0-s0', kind: 'transient', message: 'bench' }] as const;
