/** Typed errors of the breaker orchestration: inputs it never sends, each with a stable `code`. */

/** Thrown when the orchestration is started with an input that is not a breaker input. */
export class InvalidOrchestrationInputError extends Error {
  readonly code = 'INVALID_ORCHESTRATION_INPUT';
  override readonly name = 'InvalidOrchestrationInputError';
}

/** Thrown when an activity receives an input the orchestrator never sends. */
export class InvalidActivityInputError extends Error {
  readonly code = 'INVALID_ACTIVITY_INPUT';
  override readonly name = 'InvalidActivityInputError';
}

/**
 * Thrown when an orchestration's history is not one this build reads (see historyVersion.ts): the
 * instance fails, and the watchdog starts the trip's episode again on this build's shapes.
 */
export class UnreadableHistoryError extends Error {
  readonly code = 'UNREADABLE_HISTORY';
  override readonly name = 'UnreadableHistoryError';
}
