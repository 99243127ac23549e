/** Typed errors of incoming events. */

/** The event can never be processed as it is (not JSON, wrong schema, rejected by the sink as invalid). */
export class PoisonEventError extends Error {
  readonly code = 'POISON_EVENT';
  override readonly name = 'PoisonEventError';
}

export const isPoisonEventError = (e: unknown): e is PoisonEventError => e instanceof PoisonEventError;
