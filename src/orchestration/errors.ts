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
