/**
 * Typed errors of the breaker store, each with a stable `code`. No guards: outside this folder nothing
 * branches on their type (the gate and health report the name and message); `redisClient.ts` alone tells
 * its own BreakerStoreUnavailableError and RedisCredentialsError apart, with `instanceof`.
 */

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

/**
 * The credentials provider (Microsoft Entra ID) kept failing: every retry of the schedule failed or
 * timed out, or only expired tokens came back. The message is bounded and has no secrets in it.
 */
export class RedisCredentialsError extends Error {
  readonly code = 'REDIS_CREDENTIALS_UNAVAILABLE';
  override readonly name = 'RedisCredentialsError';
}
