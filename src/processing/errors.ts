/** Typed errors of the per-event loop: why a batch is held. Each has a stable `code`. */

/**
 * Thrown by the trigger to hold a batch: the circuit is open, so the host's retry policy re-runs the
 * batch later and the checkpoint does not advance.
 */
export class CircuitOpenError extends Error {
  readonly code = 'CIRCUIT_OPEN';
  override readonly name = 'CircuitOpenError';
  constructor(
    message: string,
    readonly tripId: string | undefined,
  ) {
    super(message);
  }
}

/** Dead letters could not be stored; the invocation throws so the batch is held (nothing lost). */
export class DeadLetterWriteError extends Error {
  readonly code = 'DEAD_LETTER_WRITE_FAILED';
  override readonly name = 'DeadLetterWriteError';
}

/**
 * What kept a batch from completing on this run (the host re-runs it behind the checkpoint):
 * `outage` (outage-like failures, nothing got through), `circuit-open`, `failing-alone` (outage-like
 * failures while the downstream took other writes: not yet dead-lettered as isolated), and
 * `dead-letter-store` (dead letters could not be stored). The last two are not outages.
 */
export const holdReasons = ['outage', 'circuit-open', 'failing-alone', 'dead-letter-store'] as const;
export type HoldReason = (typeof holdReasons)[number];
/** Hold reasons that are not an outage: a partition held for one of them over and over is stuck. */
export const stuckHoldReasons: readonly HoldReason[] = ['failing-alone', 'dead-letter-store'];

/**
 * Thrown by the trigger to hold a batch whose failures look like an outage: the host's retry policy
 * re-runs it and the checkpoint does not advance, so nothing of it is dead-lettered (issue 14).
 */
export class BatchHeldError extends Error {
  readonly code = 'BATCH_HELD';
  override readonly name = 'BatchHeldError';
  constructor(
    message: string,
    readonly reason: HoldReason,
  ) {
    super(message);
  }
}

export const isCircuitOpenError = (e: unknown): e is CircuitOpenError => e instanceof CircuitOpenError;
export const isBatchHeldError = (e: unknown): e is BatchHeldError => e instanceof BatchHeldError;
export const isDeadLetterWriteError = (e: unknown): e is DeadLetterWriteError =>
  e instanceof DeadLetterWriteError;

/** Why a run held its batch, from what it threw; `undefined` for an unexpected error. */
export function holdReasonOf(error: unknown): HoldReason | undefined {
  if (isBatchHeldError(error)) return error.reason;
  if (isCircuitOpenError(error)) return 'circuit-open';
  if (isDeadLetterWriteError(error)) return 'dead-letter-store';
  return undefined;
}
