import type { TripRecord } from '../../breaker/breakerStore';
import type { BreakerNotice, NoticeFacts } from '../breakerNotice';
import { closed } from '../messages/closed';
import { drainFailedMessage } from '../messages/drainFailedMessage';
import type { EmailMessage } from '../messages/emailMessage';
import { enableFailedMessage } from '../messages/enableFailedMessage';
import { withEnvironmentTag } from '../messages/formatting';
import { reminder } from '../messages/reminder';
import { resumed } from '../messages/resumed';
import { tripNotice } from '../messages/tripNotice';

/** Renders a notice as an email. */
export type BreakerMessageBuilder = (notice: BreakerNotice, facts: NoticeFacts) => EmailMessage;

export interface BreakerMessageSettings {
  readonly approvers: readonly string[];
  /**
   * Signs a fresh approval link for one trip (composition passes approval's `issueApprovalLink`): the
   * notice only carries the link, so the approval folder stays the one place that signs tokens.
   */
  readonly issueLink: (
    subject: { readonly functionName: string; readonly tripId: string },
    now: number,
  ) => { readonly url: string; readonly expiresAt: number };
  readonly probation: { readonly seconds: number; readonly threshold: number };
  /** Named in every subject, so mail from two deployments is told apart. */
  readonly environmentName?: string;
}

/**
 * The notify templates, with a freshly signed approval link in every trip notice and reminder (a
 * reminder's link outlives the first one's).
 */
export function makeBreakerMessages(settings: BreakerMessageSettings): BreakerMessageBuilder {
  const to = settings.approvers;
  const link = (notice: BreakerNotice, now: number) => {
    const issued = settings.issueLink({ functionName: notice.functionName, tripId: notice.tripId }, now);
    return { approvalUrl: issued.url, linkExpiresAt: issued.expiresAt };
  };

  const tag = (message: EmailMessage): EmailMessage =>
    settings.environmentName === undefined
      ? message
      : { ...message, subject: withEnvironmentTag(message.subject, settings.environmentName) };
  return (notice, facts) => tag(render(notice, facts));

  function render(notice: BreakerNotice, facts: NoticeFacts): EmailMessage {
    const at = Date.parse(notice.at);
    switch (notice.kind) {
      case 'tripped':
      case 'reminder': {
        const common = {
          switchOutcome: notice.disable,
          to,
          functionName: notice.functionName,
          trip:
            facts.trip ??
            fallbackTrip(notice.tripId, at, notice.kind === 'tripped' ? notice.failuresInWindow : undefined),
          deadLetterCount: facts.deadLetterCount,
          held: facts.held,
          now: facts.now,
          ...link(notice, facts.now),
        };
        return notice.kind === 'tripped'
          ? tripNotice(common)
          : reminder({ ...common, reminderNumber: notice.reminder, maxReminders: notice.maxReminders });
      }
      case 'resumed':
        return resumed({
          to,
          functionName: notice.functionName,
          tripId: notice.tripId,
          approvedBy: notice.approvedBy,
          approvedAt: at,
          switchOutcome: notice.enable,
          probation: settings.probation,
        });
      case 'enable-failed':
        return enableFailedMessage({ to, ...notice });
      case 'drain-failed':
        return drainFailedMessage({ to, ...notice, probationThreshold: settings.probation.threshold });
      case 'closed':
        return closed({ to, functionName: notice.functionName, tripId: notice.tripId, closedAt: at });
    }
  }
}

/** When the store's record of the trip cannot be read, the notice still goes out with what is known. */
function fallbackTrip(tripId: string, openedAt: number, failuresInWindow: number | undefined): TripRecord {
  return { tripId, cause: 'threshold', openedAt, failuresInWindow: failuresInWindow ?? 0, sample: [] };
}
