import {
  EmailClient,
  type EmailClientOptions,
  type EmailSendOptionalParams,
} from '@azure/communication-email';
import type { TokenCredential } from '@azure/core-auth';

import { withDependencySpan } from '../../kernel/dependencySpan';
import type { EmailMessage } from '../messages/emailMessage';
import { classifyAcsError } from './classifyAcsError';
import { type EmailSender, requireRecipients, requireSender } from './emailSender';
import { EmailConfigError, EmailDeliveryError, EmailRejectedError } from './errors';

export type AcsTlsSettings = NonNullable<EmailClientOptions['tlsOptions']>;

export interface AcsClientSettings {
  readonly endpoint: string | undefined;
  readonly connectionString: string | undefined;
  /** Used with `endpoint` (managed identity); ignored with a connection string. */
  readonly credential: TokenCredential;
  /** Tests only: trust for a local HTTPS endpoint. */
  readonly tls?: AcsTlsSettings;
}

/** Builds the EmailClient from a connection string or an endpoint plus credential. */
export function makeAcsEmailClient(settings: AcsClientSettings): EmailClient {
  const options: EmailClientOptions = {
    // The orchestration retries the email activity: one retry layer, and a resend is the only risk.
    retryOptions: { maxRetries: 0 },
    ...(settings.tls === undefined ? {} : { tlsOptions: settings.tls }),
  };
  if (settings.connectionString !== undefined && settings.connectionString.trim() !== '')
    return new EmailClient(settings.connectionString, options);
  if (settings.endpoint !== undefined && settings.endpoint.trim() !== '')
    return new EmailClient(settings.endpoint, settings.credential, options);
  throw new EmailConfigError(
    'EMAIL_PROVIDER=acs needs ACS_ENDPOINT (with a managed identity holding a Communication Services role) or ACS_CONNECTION_STRING',
  );
}

export interface AcsEmailSenderOptions {
  readonly client: EmailClient;
  /** A verified MailFrom address of the ACS email domain. */
  readonly sender: string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly pollIntervalMs?: number;
  /** Bounds the wait: after this many status polls the send counts as not finished (retryable). */
  readonly maxPolls?: number;
}

const acsAttributes = { 'http.request.method': 'POST', 'peer.service': 'Azure Communication Services' };

/** Sends through Azure Communication Services Email and polls the operation until it finishes. */
export function makeAcsEmailSender(options: AcsEmailSenderOptions): EmailSender {
  requireSender(options.sender);
  const interval = options.pollIntervalMs ?? 2_000;
  const maxPolls = options.maxPolls ?? 30;
  return {
    // One ACS dependency span per email, the status polls included.
    send: (message) =>
      withDependencySpan('ACS email send', acsAttributes, async () => {
        requireRecipients(message.to);
        let poller: Awaited<ReturnType<EmailClient['beginSend']>> | undefined;
        try {
          poller = await options.client.beginSend(
            {
              senderAddress: options.sender,
              content: { subject: message.subject, plainText: message.text, html: message.html },
              recipients: { to: message.to.map((address) => ({ address })) },
            },
            repeatable(message),
          );
          // Our own loop rather than pollUntilDone: the wait is bounded and the sleep is injectable.
          for (let polls = 0; !poller.isDone(); polls++) {
            if (polls >= maxPolls)
              throw new EmailDeliveryError(
                `ACS accepted the email but it did not finish within ${maxPolls} status polls (${(maxPolls * interval) / 1000} s)`,
              );
            await options.sleep(interval);
            await poller.poll();
          }
          const state = poller.getOperationState();
          if (state.status !== 'succeeded')
            throw new EmailRejectedError(
              `ACS email operation ended as ${state.status}: ${state.error?.message ?? ''}`,
            );
        } catch (error) {
          throw classifyAcsError(error, poller?.getOperationState().status);
        }
      }),
  };
}

/**
 * ACS repeatable requests (OASIS Repeatable Requests 1.0): the same Repeatability-Request-Id with the
 * original Repeatability-First-Sent, within the 5 minutes ACS tracks, returns the first request's
 * result without sending again; older than that ACS answers 412, and the send counts as failed.
 */
function repeatable(message: EmailMessage): EmailSendOptionalParams {
  const identity = message.identity;
  if (identity === undefined) return {};
  return {
    operationId: identity.messageId,
    requestOptions: {
      customHeaders: {
        'Repeatability-Request-Id': identity.messageId,
        'Repeatability-First-Sent': new Date(identity.firstAttemptAt).toUTCString(),
      },
    },
  };
}
