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

/**
 * The HTTP downstream answered with a status other than 2xx. It carries `statusCode` (and, for 429 and
 * 503, `retryAfterMs` from `Retry-After`) so the one classifier (`classifyError`) decides whether the
 * downstream is out or refuses this event; the sink itself never decides.
 */
// #region HttpStatusError
export class HttpStatusError extends Error {
  readonly code = 'SINK_HTTP_STATUS';
  override readonly name = 'HttpStatusError';
  constructor(
    message: string,
    readonly statusCode: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}
// #endregion HttpStatusError
