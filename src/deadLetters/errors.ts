/** Typed errors of the dead letters and their redrive, each with a stable `code`. */

/** A queue message that is not a dead letter (corrupt, or written by something else). */
export class InvalidDeadLetterMessageError extends Error {
  readonly code = 'INVALID_DEAD_LETTER_MESSAGE';
  override readonly name = 'InvalidDeadLetterMessageError';
}

/** The sink still failed after the retry policy: the host makes the message visible again later. */
export class RedriveFailedError extends Error {
  readonly code = 'REDRIVE_FAILED';
  override readonly name = 'RedriveFailedError';
}
