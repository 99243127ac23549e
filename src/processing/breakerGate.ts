/** A failure reported to the shared window. */
export interface FailureSample {
  readonly eventKey: string;
  readonly kind: 'transient' | 'permanent';
  readonly message: string;
}

export interface GateState {
  /** True when the circuit is OPEN: the batch must be held, not processed or dead-lettered. */
  readonly open: boolean;
  readonly tripId: string | undefined;
}

/**
 * The processing function's view of the circuit breaker (design section 4). The real gate sits on the
 * shared store; `alwaysClosedGate` is used where no breaker is wanted.
 */
export interface BreakerGate {
  /** The (cached) state: no round trip while the cache is fresh. Must not throw (G6). */
  check(): Promise<GateState>;
  /** One store round trip for a batch that had failures. Must not throw: a store outage reports closed (G6). */
  recordFailures(failures: readonly FailureSample[]): Promise<GateState>;
}

export const alwaysClosedGate: BreakerGate = {
  check: () => Promise.resolve({ open: false, tripId: undefined }),
  recordFailures: () => Promise.resolve({ open: false, tripId: undefined }),
};
