import { EmailDeliveryError, type EmailError, EmailRejectedError } from './errors';

/** The poller throws a plain Error for a failed operation; its state (or, when beginSend's first poll threw, its fixed wording) says so. */
const OPERATION_ENDED = /long-running operation has (failed|been canceled)/i;

/** The one place that decides which ACS failures are worth another attempt. */
export function classifyAcsError(error: unknown, operationStatus: string | undefined): EmailError {
  if (error instanceof EmailDeliveryError || error instanceof EmailRejectedError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (operationStatus === 'failed' || operationStatus === 'canceled' || OPERATION_ENDED.test(message))
    return new EmailRejectedError(`ACS did not deliver the email: ${message}`);
  const status =
    typeof error === 'object' &&
    error !== null &&
    'statusCode' in error &&
    typeof error.statusCode === 'number'
      ? error.statusCode
      : undefined;
  if (status === undefined || status === 408 || status === 429 || status >= 500)
    return new EmailDeliveryError(
      `ACS email send failed${status === undefined ? '' : ` (HTTP ${status})`}: ${message}`,
    );
  if (status === 401 || status === 403)
    return new EmailRejectedError(
      `ACS refused the request (HTTP ${status}): the identity needs a role on the Communication Services resource (e.g. "Communication and Email Service Owner"), or the access key is wrong`,
    );
  return new EmailRejectedError(`ACS rejected the email (HTTP ${status}): ${message}`);
}
