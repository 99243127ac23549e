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
