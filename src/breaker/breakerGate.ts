import type { FailureSample } from '../kernel/failureSample';

export interface GateState {
  /** True when the circuit is OPEN: the batch must be held, not processed or dead-lettered. */
  readonly open: boolean;
  readonly tripId: string | undefined;
}

export interface RecordedFailures extends GateState {
  /** True for exactly one caller per episode: this batch's failures tripped the breaker. */
  readonly tripped: boolean;
  readonly failuresInWindow: number | undefined;
}

/** Called once per episode by the instance whose batch tripped the breaker (starts the orchestration). */
export type BreakerTrippedHandler = (trip: {
  tripId: string;
  failuresInWindow: number | undefined;
}) => Promise<void>;

/**
 * The processing function's view of the circuit breaker (docs/how-it-works.md#breaker-store). The real gate
 * sits on the shared store; `alwaysClosedGate` is used where no breaker is wanted.
 */
export interface BreakerGate {
  /** The (cached) state: no round trip while the cache is fresh. Must not throw (G6). */
  check(): Promise<GateState>;
  /** One store round trip for a batch that had failures. Must not throw: a store outage reports closed (G6). */
  recordFailures(failures: readonly FailureSample[]): Promise<RecordedFailures>;
}

export const alwaysClosedGate: BreakerGate = {
  check: () => Promise.resolve({ open: false, tripId: undefined }),
  recordFailures: () =>
    Promise.resolve({ open: false, tripId: undefined, tripped: false, failuresInWindow: undefined }),
};
