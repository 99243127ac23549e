import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { webhookBody } from '../../src/notify/webhook/webhookBodies';
import { plainOutsideText, type WebhookNotice } from '../../src/notify/webhook/webhookNotice';
import { signWebhook, verifyWebhookSignature } from '../../src/notify/webhook/webhookSignature';

const KEY = 'current-webhook-key-0123456789abcdef-0123';
const OLD = 'previous-webhook-key-0123456789abcdef-012';
const T = 1_767_225_600;

const notice: WebhookNotice = {
  deliveryId: 't1-abc:tripped',
  kind: 'tripped',
  severity: 'critical',
  tripId: 't1-abc',
  functionName: 'ProcessSensorEvents',
  at: '2026-01-01T00:00:00.000Z',
  title: 'ProcessSensorEvents stopped <now> & held',
  summary: 'Processing is paused.',
  facts: [
    ['Trip id', 't1-abc'],
    ['Failures in window', '120'],
  ],
  dashboardUrl: 'https://app.example.test/api/breaker/dashboard',
};

describe('webhook signature (the scheme receivers implement)', () => {
  const body = webhookBody('json', notice);
  const signed = { body, timestamp: String(T), signature: signWebhook(body, KEY, T), nowSeconds: T + 10 };

  it('verifies with the key, and with a previous key during a rotation', () => {
    expect(verifyWebhookSignature({ ...signed, keys: [KEY] })).toBe(true);
    const byOld = { ...signed, signature: signWebhook(body, OLD, T) };
    expect(verifyWebhookSignature({ ...byOld, keys: [KEY, OLD] })).toBe(true);
    expect(verifyWebhookSignature({ ...byOld, keys: [KEY] })).toBe(false);
  });

  it('refuses a changed body, a changed timestamp, a stale request and missing headers', () => {
    expect(verifyWebhookSignature({ ...signed, body: body.replace('120', '1'), keys: [KEY] })).toBe(false);
    expect(verifyWebhookSignature({ ...signed, timestamp: String(T + 1), keys: [KEY] })).toBe(false);
    expect(verifyWebhookSignature({ ...signed, nowSeconds: T + 301, keys: [KEY] })).toBe(false);
    expect(verifyWebhookSignature({ ...signed, signature: undefined, keys: [KEY] })).toBe(false);
    expect(verifyWebhookSignature({ ...signed, timestamp: 'soon', keys: [KEY] })).toBe(false);
  });

  it('accepts a timestamp exactly at the tolerance, either side of now, and refuses one second past it', () => {
    expect(verifyWebhookSignature({ ...signed, nowSeconds: T + 300, keys: [KEY] })).toBe(true);
    expect(verifyWebhookSignature({ ...signed, nowSeconds: T - 300, keys: [KEY] })).toBe(true);
    expect(verifyWebhookSignature({ ...signed, nowSeconds: T - 301, keys: [KEY] })).toBe(false);
    const tight = { ...signed, keys: [KEY], toleranceSeconds: 30 };
    expect(verifyWebhookSignature({ ...tight, nowSeconds: T + 30 })).toBe(true);
    expect(verifyWebhookSignature({ ...tight, nowSeconds: T + 31 })).toBe(false);
  });

  it('is v1= and the hex HMAC-SHA256 of "<timestamp>.<body>", as documented for receivers', () => {
    const expected = createHmac('sha256', KEY).update(`${T}.${body}`).digest('hex');
    expect(signed.signature).toBe(`v1=${expected}`);
  });
});

describe('webhook bodies', () => {
  it('json: the generic payload with every field a receiver maps', () => {
    expect(JSON.parse(webhookBody('json', notice))).toEqual({
      version: 1,
      source: 'breakwater',
      deliveryId: 't1-abc:tripped',
      kind: 'tripped',
      severity: 'critical',
      tripId: 't1-abc',
      functionName: 'ProcessSensorEvents',
      at: '2026-01-01T00:00:00.000Z',
      title: 'ProcessSensorEvents stopped <now> & held',
      summary: 'Processing is paused.',
      facts: { 'Trip id': 't1-abc', 'Failures in window': '120' },
      dashboardUrl: 'https://app.example.test/api/breaker/dashboard',
    });
  });

  it('teams: a message with one Adaptive Card (title, summary, facts, dashboard button)', () => {
    const message = JSON.parse(webhookBody('teams', notice)) as {
      type: string;
      attachments: { contentType: string; content: { type: string; body: unknown[]; actions: unknown[] } }[];
    };
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    const card = message.attachments[0];
    expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card?.content.type).toBe('AdaptiveCard');
    expect(card?.content.body).toEqual([
      expect.objectContaining({ type: 'TextBlock', text: notice.title, color: 'Attention' }),
      expect.objectContaining({ type: 'TextBlock', text: 'Processing is paused.' }),
      {
        type: 'FactSet',
        facts: [
          { title: 'Trip id', value: 't1-abc' },
          { title: 'Failures in window', value: '120' },
        ],
      },
    ]);
    expect(card?.content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open the dashboard', url: notice.dashboardUrl },
    ]);
  });

  it('slack: text fallback plus blocks, with &, < and > escaped as Slack requires', () => {
    const message = JSON.parse(webhookBody('slack', notice)) as {
      text: string;
      blocks: { type: string; text?: { type: string; text: string } }[];
    };
    expect(message.text).toBe('ProcessSensorEvents stopped &lt;now&gt; &amp; held');
    expect(message.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'context']);
    expect(message.blocks[2]?.text?.text).toBe('*Trip id:* t1-abc\n*Failures in window:* 120');
  });

  it('outside text (an approver name) loses markup, control characters and excess length', () => {
    expect(plainOutsideText('<!channel> [click](https://evil.test)\nJane')).toBe(
      'channel click https://evil.test Jane',
    );
    expect(plainOutsideText('x'.repeat(500))).toHaveLength(100);
    expect(plainOutsideText('\u0000')).toBe('unknown');
  });
});
