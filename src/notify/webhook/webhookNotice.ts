export const WEBHOOK_NOTICE_KINDS = [
  'tripped',
  'reminder',
  'resumed',
  'enable-failed',
  'drain-failed',
  'closed',
] as const;

/**
 * A breaker notice as every webhook format shows it. It never carries the approval link: a channel is
 * usually read by more people than the approvers, and the link is a credential until it expires.
 */
export interface WebhookNotice {
  /** Stable per notice (`<tripId>:<kind>[:<n>]`): the same on every retry, so receivers can de-duplicate. */
  readonly deliveryId: string;
  readonly kind: (typeof WEBHOOK_NOTICE_KINDS)[number];
  /** `critical` needs a person (trip, reminder, a failed re-enable); `info` reports progress. */
  readonly severity: 'critical' | 'info';
  readonly tripId: string;
  readonly functionName: string;
  /** ISO time of the notice. */
  readonly at: string;
  readonly title: string;
  readonly summary: string;
  readonly facts: readonly (readonly [label: string, value: string])[];
  /** Operator dashboard (needs the function key). */
  readonly dashboardUrl: string;
}

/** Longest text taken from outside (an approver's name) into a webhook. */
const MAX_OUTSIDE_TEXT = 100;

/**
 * Outside text for chat formats: control characters and the characters Slack mrkdwn or Teams markdown
 * would treat as markup (links, mentions, emphasis) are dropped, and the length is bounded.
 */
export function plainOutsideText(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f<>[\]()*_~`|#!@&\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_OUTSIDE_TEXT) || 'unknown'
  );
}
