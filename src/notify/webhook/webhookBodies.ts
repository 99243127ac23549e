import type { WebhookNotice } from './webhookNotice';

/** The body formats a webhook can be sent in (the WEBHOOK_FORMAT setting lists these). */
export const webhookFormats = ['json', 'teams', 'slack'] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

/** Version of the generic json payload; bumped only on an incompatible change. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

/** The request body for the configured format, as JSON text (the signature covers exactly this text). */
export function webhookBody(format: WebhookFormat, notice: WebhookNotice): string {
  switch (format) {
    case 'json':
      return JSON.stringify(genericPayload(notice));
    case 'teams':
      return JSON.stringify(teamsMessage(notice));
    case 'slack':
      return JSON.stringify(slackMessage(notice));
  }
}

/** The generic payload: every field a paging service or custom receiver maps (docs/notify-and-control.md). */
function genericPayload(n: WebhookNotice) {
  return {
    version: WEBHOOK_PAYLOAD_VERSION,
    source: 'breakwater',
    deliveryId: n.deliveryId,
    kind: n.kind,
    severity: n.severity,
    tripId: n.tripId,
    functionName: n.functionName,
    at: n.at,
    title: n.title,
    summary: n.summary,
    facts: Object.fromEntries(n.facts),
    dashboardUrl: n.dashboardUrl,
  };
}

/** A message with one Adaptive Card, the shape Teams Workflows ("post to a channel when a webhook request is received") accept. */
function teamsMessage(n: WebhookNotice) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: n.title,
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              color: n.severity === 'critical' ? 'Attention' : 'Default',
            },
            { type: 'TextBlock', text: n.summary, wrap: true },
            { type: 'FactSet', facts: n.facts.map(([title, value]) => ({ title, value })) },
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open the dashboard', url: n.dashboardUrl }],
        },
      },
    ],
  };
}

/** A Slack incoming-webhook message: `text` is the notification fallback, `blocks` the layout. */
function slackMessage(n: WebhookNotice) {
  const facts = n.facts.map(([label, value]) => `*${slack(label)}:* ${slack(value)}`).join('\n');
  return {
    text: slack(n.title),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: n.title.slice(0, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: slack(n.summary) } },
      { type: 'section', text: { type: 'mrkdwn', text: facts } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${n.dashboardUrl}|Open the dashboard>` }] },
    ],
  };
}

/** Slack's three control characters in message text. */
const slack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
