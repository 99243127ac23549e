import type { TriggerSwitchOutcome } from '../../control/triggerSwitchOutcome';
import { formatTime } from '../../web/formatting';
import type { BreakerNotice, NoticeFacts } from '../breakerNotice';
import { plainOutsideText, type WebhookNotice } from './webhookNotice';

const TRIGGER_FACT: Record<TriggerSwitchOutcome['kind'], string> = {
  switched: 'disabled',
  soft: 'held by the soft OPEN state',
  failed: 'NOT disabled',
};

/** Renders a notice for the webhook channel. */
export type BreakerWebhookBuilder = (notice: BreakerNotice, facts: NoticeFacts) => WebhookNotice;

/**
 * The webhook's view of each notice: what happened and what to do, with counts and ids only. The
 * approval link stays in the email to the approvers (see WebhookNotice).
 */
export function makeBreakerWebhookNotices(settings: {
  readonly publicBaseUrl: string;
}): BreakerWebhookBuilder {
  const dashboardUrl = `${settings.publicBaseUrl.replace(/\/+$/, '')}/api/breaker/dashboard`;
  return (notice, facts) => {
    const base = {
      kind: notice.kind,
      tripId: notice.tripId,
      functionName: notice.functionName,
      at: notice.at,
      dashboardUrl,
    };
    const tripFacts = (disable: TriggerSwitchOutcome): [string, string][] => [
      ['Trip id', notice.tripId],
      ['Cause', facts.trip?.cause ?? 'threshold'],
      ['Failures in window', facts.trip ? String(facts.trip.failuresInWindow) : 'unknown'],
      ['Dead letters', facts.deadLetterCount === undefined ? 'unknown' : String(facts.deadLetterCount)],
      ['Trigger', TRIGGER_FACT[disable.kind]],
    ];
    switch (notice.kind) {
      case 'tripped':
      case 'reminder': {
        const reminder =
          notice.kind === 'reminder' ? ` (reminder ${notice.reminder} of ${notice.maxReminders})` : '';
        return {
          ...base,
          deliveryId: `${notice.tripId}:${notice.kind}${notice.kind === 'reminder' ? `:${notice.reminder}` : ''}`,
          severity: 'critical',
          title: `${notice.functionName} stopped by the circuit breaker${reminder}`,
          summary:
            'Processing is paused; events wait in the Event Hub. Fix the downstream, then approve the restart ' +
            'from the link emailed to the approvers.',
          facts: tripFacts(notice.disable),
        };
      }
      case 'resumed':
        return {
          ...base,
          deliveryId: `${notice.tripId}:resumed`,
          severity: 'info',
          title: `${notice.functionName} resumed`,
          summary: 'The restart was approved; the trigger is enabled again under probation.',
          facts: [
            ['Trip id', notice.tripId],
            ['Approved by', plainOutsideText(notice.approvedBy)],
          ],
        };
      case 'enable-failed':
        return {
          ...base,
          deliveryId: `${notice.tripId}:enable-failed`,
          severity: 'critical',
          title: `${notice.functionName} approved but NOT re-enabled`,
          summary: 'The trigger could not be switched on: enable it by hand (see the runbook).',
          facts: [
            ['Trip id', notice.tripId],
            ['Approved by', plainOutsideText(notice.approvedBy)],
          ],
        };
      case 'drain-failed':
        return {
          ...base,
          deliveryId: `${notice.tripId}:drain-failed`,
          // Processing is still paused: as loud as the trip itself.
          severity: 'critical',
          title: `${notice.functionName} approved; saved events not yet written`,
          summary:
            'The trigger stays disabled while the breaker writes the events saved before the retention again; ' +
            'do not enable it by hand, newer events would overtake them.',
          facts: [
            ['Trip id', notice.tripId],
            ['Approved by', plainOutsideText(notice.approvedBy)],
            ['Next attempt', `in ${notice.retryMinutes} min`],
          ],
        };
      case 'closed':
        return {
          ...base,
          deliveryId: `${notice.tripId}:closed`,
          severity: 'info',
          title: `${notice.functionName}: breaker closed`,
          summary: `Probation passed at ${formatTime(Date.parse(notice.at))}; the episode is over.`,
          facts: [['Trip id', notice.tripId]],
        };
    }
  };
}
