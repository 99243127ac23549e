/** Typed errors of the breaker store. Each has a stable `code` and a guard. */

/**
 * The store answered with data no adapter writes (an unknown state, a non-numeric bucket, a malformed
 * trip record). Thrown rather than guessed at: the gate treats it like an outage (reports closed and
 * surfaces it in health) so processing continues (G6) and an operator sees it.
 */
export class BreakerStoreCorruptError extends Error {
  readonly code = 'BREAKER_STORE_CORRUPT';
  override readonly name = 'BreakerStoreCorruptError';
}

/** A programming error: a transition the state machine never makes (e.g. into OPEN without a new trip). */
export class InvalidTransitionError extends Error {
  readonly code = 'BREAKER_INVALID_TRANSITION';
  override readonly name = 'InvalidTransitionError';
}

/** The store could not be reached in time (connection down, timeout). */
export class BreakerStoreUnavailableError extends Error {
  readonly code = 'BREAKER_STORE_UNAVAILABLE';
  override readonly name = 'BreakerStoreUnavailableError';
}
