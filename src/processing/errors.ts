/** Typed errors of the processing path. Each has a stable `code` and a guard. */

/** The event can never be processed as it is (not JSON, wrong schema, rejected by the sink as invalid). */
export class PoisonEventError extends Error {
  readonly code = 'POISON_EVENT';
  override readonly name = 'PoisonEventError';
}

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

/** A sink may throw this to mark a failure as retryable when no status code says so. */
export class TransientSinkError extends Error {
  readonly code = 'SINK_TRANSIENT';
  override readonly name = 'TransientSinkError';
}

export const isPoisonEventError = (e: unknown): e is PoisonEventError => e instanceof PoisonEventError;
export const isCircuitOpenError = (e: unknown): e is CircuitOpenError => e instanceof CircuitOpenError;
export const isDeadLetterWriteError = (e: unknown): e is DeadLetterWriteError =>
  e instanceof DeadLetterWriteError;

/** Normalises any thrown value into an Error. */
export function ensureError(value: unknown): Error {
  if (value instanceof Error) return value;
  if (typeof value === 'string') return new Error(value);
  const shown: unknown = JSON.stringify(value);
  return new Error(`non-error thrown: ${typeof shown === 'string' ? shown : String(value)}`);
}
