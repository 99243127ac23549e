/** Typed failures of the webhook sender; `retryable` tells the activity whether another attempt can help. */
export abstract class WebhookError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
}

/** Unreachable, timed out, 408, 429 or 5xx: the activity's retry policy tries again. */
export class WebhookDeliveryError extends WebhookError {
  readonly code = 'WEBHOOK_TRANSIENT';
  readonly retryable = true;
  override readonly name = 'WebhookDeliveryError';
}

/** The receiver answered with another 4xx (bad URL, refused signature): retrying cannot help. */
export class WebhookRejectedError extends WebhookError {
  readonly code = 'WEBHOOK_REJECTED';
  readonly retryable = false;
  override readonly name = 'WebhookRejectedError';
}

export const isWebhookRejectedError = (e: unknown): e is WebhookRejectedError =>
  e instanceof WebhookRejectedError;
