import type { Clock } from '../../kernel/clock';
import { httpAttributes, recordHttpStatus, withDependencySpan } from '../../kernel/dependencySpan';
import { readBoundedBody } from '../../sinks/boundedBody';
import { WebhookDeliveryError, WebhookRejectedError } from './errors';
import type { WebhookFormat } from './webhookBodies';
import { webhookBody } from './webhookBodies';
import type { WebhookNotice } from './webhookNotice';
import { signStandardWebhook, signWebhook, StandardWebhookHeader, WebhookHeader } from './webhookSignature';

/** Posts breaker notices to the configured webhook. */
export interface WebhookSender {
  send(notice: WebhookNotice): Promise<void>;
}

export interface WebhookSenderDeps {
  readonly clock: Clock;
  /** Bound of one request; the activity's retry policy handles the next attempt. */
  readonly timeoutMs?: number;
}

/**
 * How much of the receiver's answer is read: the status decides, the body is never used. Reading a
 * little and cancelling the rest frees the connection without letting a receiver fill memory.
 */
const MAX_ANSWER_BYTES = 4 * 1024;

/** Statuses worth another attempt; any other 4xx means the request itself is wrong. */
const TRANSIENT_STATUSES = new Set([408, 425, 429]);

/**
 * One POST per call, no retry here: the orchestration's activity retry (the same bounded policy as
 * email) is the one retry layer. Throws WebhookDeliveryError (retry) or WebhookRejectedError (don't).
 * Error messages name the host only: the URL's path of a Teams or Slack webhook is its secret.
 */
export function makeWebhookSender(config: WebhookConfig, deps: WebhookSenderDeps): WebhookSender {
  const host = new URL(config.url).host;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  return {
    send: (notice) =>
      withDependencySpan('webhook POST', httpAttributes('POST', config.url, true), async (span) => {
        const body = webhookBody(config.format, notice);
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          [WebhookHeader.delivery]: notice.deliveryId,
          [StandardWebhookHeader.id]: notice.deliveryId,
        };
        if (config.signingKey !== undefined) {
          const timestamp = Math.floor(deps.clock.now() / 1000);
          headers[WebhookHeader.timestamp] = String(timestamp);
          headers[WebhookHeader.signature] = signWebhook(body, config.signingKey, timestamp);
          // The same key, Standard Webhooks' scheme: the id is signed, and receivers have verifiers for it.
          headers[StandardWebhookHeader.timestamp] = String(timestamp);
          headers[StandardWebhookHeader.signature] = signStandardWebhook(
            notice.deliveryId,
            body,
            config.signingKey,
            timestamp,
          );
        }
        let response: Response;
        try {
          response = await fetch(config.url, {
            method: 'POST',
            headers,
            body,
            redirect: 'error',
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (error) {
          const cause = error instanceof Error ? (error.cause ?? error) : error;
          const what = cause instanceof Error ? cause.message : String(cause);
          throw new WebhookDeliveryError(`webhook ${host} unreachable or too slow: ${what}`);
        }
        // The body is not needed: read a bounded part and cancel the rest (an answer may never end).
        await readBoundedBody(response, MAX_ANSWER_BYTES).catch(() => undefined);
        recordHttpStatus(span, response.status);
        if (response.ok) return;
        const status = response.status;
        if (status >= 500 || TRANSIENT_STATUSES.has(status))
          throw new WebhookDeliveryError(`webhook ${host} answered ${status}`);
        throw new WebhookRejectedError(`webhook ${host} refused the notice (${status})`);
      }),
  };
}

export interface WebhookConfig {
  readonly url: string;
  readonly format: WebhookFormat;
  /** Signs every request when set; always set for the generic json format. */
  readonly signingKey: string | undefined;
}
