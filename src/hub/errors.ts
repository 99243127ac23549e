/** Typed errors of incoming events and of the checkpoints they are read behind. */

/** The event can never be processed as it is (not JSON, wrong schema, rejected by the sink as invalid). */
export class PoisonEventError extends Error {
  readonly code = 'POISON_EVENT';
  override readonly name = 'PoisonEventError';
}

/**
 * The reading is dated further ahead of its event than the accepted clock skew (`readingTime.ts`):
 * as permanent as poison, dead-lettered under a reason of its own so the operator sees a gateway's clock.
 */
export class FutureReadingError extends Error {
  readonly code = 'FUTURE_TIMESTAMP';
  override readonly name = 'FutureReadingError';
}

export const isPoisonEventError = (e: unknown): e is PoisonEventError => e instanceof PoisonEventError;
export const isFutureReadingError = (e: unknown): e is FutureReadingError => e instanceof FutureReadingError;
