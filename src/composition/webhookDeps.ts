import type { AppConfig } from '../config/appConfig';
import { makeWebhookSender } from '../notify/webhook/webhookSender';
import type { BreakerActivityDeps } from '../orchestration/breakerActivities';
import { makeBreakerWebhookNotices } from '../orchestration/breakerWebhookNotices';
import type { Clock } from '../kernel/clock';

/** The webhook channel's part of the activity deps: nothing when WEBHOOK_URL is unset. */
export function webhookDeps(config: AppConfig, clock: Clock): Pick<BreakerActivityDeps, 'webhook'> {
  const webhook = config.operations.webhook;
  if (webhook === undefined) return {};
  return {
    webhook: {
      sender: makeWebhookSender(webhook, { clock }),
      notices: makeBreakerWebhookNotices({ publicBaseUrl: config.approval.publicBaseUrl }),
    },
  };
}
