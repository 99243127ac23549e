/** Typed errors a sink throws to say what a failure means (classifyError reads them). */

/** A sink may throw this to mark a failure as retryable when no status code says so. */
export class TransientSinkError extends Error {
  readonly code = 'SINK_TRANSIENT';
  override readonly name = 'TransientSinkError';
}

/**
 * The sink could not settle a write conflict on this event's row (other writers kept changing it):
 * retried per event, and about this event, so it is dead-lettered rather than holding the batch.
 */
export class SinkConflictError extends Error {
  readonly code = 'SINK_CONFLICT';
  override readonly name = 'SinkConflictError';
}
