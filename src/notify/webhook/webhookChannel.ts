import type { NoticeChannel, NoticeOutcome } from '../noticeChannel';
import { isWebhookRejectedError } from './errors';
import { reviveStoredWebhook } from './storedWebhook';
import type { WebhookNotice } from './webhookNotice';
import type { WebhookSender } from './webhookSender';
import { WEBHOOK_CHANNEL } from './webhookTraits';

/**
 * The webhook: started beside the approval wait, never awaited before it. A receiver's refusal comes
 * back as a value; transient failures are thrown (the activity retries).
 */
export function webhookChannel<N, F>(deps: {
  readonly sender: WebhookSender;
  readonly render: (notice: N, facts: F) => WebhookNotice;
}): NoticeChannel<N, F, WebhookNotice> {
  return {
    ...WEBHOOK_CHANNEL,
    render: deps.render,
    revive: reviveStoredWebhook,
    // The receiver can deduplicate by the delivery id (the same for every attempt), not the identity.
    async send(message): Promise<NoticeOutcome> {
      try {
        await deps.sender.send(message);
        return { ok: true };
      } catch (error) {
        if (isWebhookRejectedError(error)) return { ok: false, code: error.code, message: error.message };
        throw error;
      }
    },
  };
}
