import { issueApprovalLink } from '../approval/issueApprovalLink';
import type { AppConfig } from '../config/appConfig';
import type { Clock } from '../kernel/clock';
import type { BreakerChannel } from '../notify/breakerChannel';
import { makeBreakerMessages } from '../notify/email/breakerMessages';
import { emailChannel } from '../notify/email/emailChannel';
import type { EmailSender } from '../notify/email/emailSender';
import { makeBreakerWebhookNotices } from '../notify/webhook/breakerWebhookNotices';
import { webhookChannel } from '../notify/webhook/webhookChannel';
import { makeWebhookSender } from '../notify/webhook/webhookSender';

/**
 * The channels breaker notices go out on, in the order they are sent (email, then webhook: a replay
 * checks the order of the calls). A channel whose settings are absent is not in the list; a new
 * channel is its folder under `notify/` and one line here.
 */
export function noticeChannels(
  config: AppConfig,
  deps: { readonly clock: Clock; readonly emailSender: EmailSender },
): readonly BreakerChannel[] {
  return [email(config, deps.emailSender), ...webhook(config, deps.clock)];
}

function email(config: AppConfig, sender: EmailSender): BreakerChannel {
  const render = makeBreakerMessages({
    approvers: config.email.approvers,
    issueLink: (subject, now) => issueApprovalLink(config.approval, subject, now),
    probation: { seconds: config.breaker.probationSeconds, threshold: config.breaker.probationThreshold },
    environmentName: config.environmentName,
  });
  return emailChannel({ sender, render });
}

/** Nothing when WEBHOOK_URL is unset. */
function webhook(config: AppConfig, clock: Clock): BreakerChannel[] {
  const settings = config.operations.webhook;
  if (settings === undefined) return [];
  const sender = makeWebhookSender(settings, { clock });
  const render = makeBreakerWebhookNotices({ publicBaseUrl: config.approval.publicBaseUrl });
  return [webhookChannel({ sender, render })];
}
