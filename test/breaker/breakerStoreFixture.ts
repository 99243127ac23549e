import type { BreakerPolicy } from '../../src/breaker/breakerPolicy';
import type { BreakerStore } from '../../src/breaker/breakerStore';
import type { FailureSample } from '../../src/kernel/failureSample';

/** Opens a store on the breaker `name`; stores opened on one name share the window and state. */
export type OpenStore = (name: string, policy: BreakerPolicy) => Promise<BreakerStore>;

/** 2026-01-01T00:00:00Z: a bucket boundary, so offsets from it read as bucket positions. */
export const T0 = Date.UTC(2026, 0, 1);

export const testPolicy: BreakerPolicy = {
  threshold: 5,
  probationThreshold: 2,
  windowMs: 10_000,
  bucketMs: 1_000,
  historyLimit: 3,
};

export const failures = (n: number, prefix = 'e'): FailureSample[] =>
  Array.from({ length: n }, (_, i) => ({
    eventKey: `${prefix}${i}`,
    kind: 'transient',
    message: `boom ${i}`,
  }));

let counter = 0;
export const uniqueName = (label: string) =>
  `${label}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A store on a breaker name of its own (nothing shared with any other test). */
export type FreshStore = (policy?: BreakerPolicy) => Promise<BreakerStore>;
