/** Typed failures of email senders; `retryable` tells the activity whether another attempt can help. */
export abstract class EmailError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
}

/** The transport is not configured well enough to ever send (missing endpoint, sender, recipients). */
export class EmailConfigError extends EmailError {
  readonly code = 'EMAIL_CONFIG_INVALID';
  readonly retryable = false;
  override readonly name = 'EmailConfigError';
}

/** The server could not be reached, was busy, or the send did not finish in time: try again later. */
export class EmailDeliveryError extends EmailError {
  readonly code = 'EMAIL_TRANSIENT';
  readonly retryable = true;
  override readonly name = 'EmailDeliveryError';
}

/** The service answered and refused (bad sender, recipients rejected, authentication failed). */
export class EmailRejectedError extends EmailError {
  readonly code = 'EMAIL_REJECTED';
  readonly retryable = false;
  override readonly name = 'EmailRejectedError';
}
