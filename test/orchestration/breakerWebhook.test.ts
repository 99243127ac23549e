/**
 * The webhook channel inside the real orchestration: a trip posts a signed notice to a local receiver
 * that verifies it; a receiver that is down or refuses never stops the disable, the email or the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HistoryEventType } from '../../sim/durable/replay';
import { freePort } from '../../sim/services/freePort';
import { makeBreakerWebhookNotices } from '../../src/notify/webhook/breakerWebhookNotices';
import { webhookChannel } from '../../src/notify/webhook/webhookChannel';
import type { WebhookConfig } from '../../src/notify/webhook/webhookSender';
import { makeWebhookSender } from '../../src/notify/webhook/webhookSender';
import { WebhookHeader } from '../../src/notify/webhook/webhookSignature';
import { BreakerActivity, sendActivityName } from '../../src/orchestration/activityNames';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { newEpisode, registerBreakerWith, SETTINGS, untilAwaitingApproval } from './breakerFixture';

const KEY = 'webhook-test-signing-key-0123456789abcdef-xyz';
let receiver: WebhookReceiver;
let receiverNow = 0;

beforeAll(async () => {
  registerBreakerWith(SETTINGS);
  receiver = await startWebhookReceiver({ keys: [KEY], nowSeconds: () => receiverNow });
});
afterAll(() => receiver.close());

const episodeTo = (config: WebhookConfig) =>
  newEpisode((clock) => ({
    channels: [
      webhookChannel({
        sender: makeWebhookSender(config, { clock, timeoutMs: 2_000 }),
        render: makeBreakerWebhookNotices({ publicBaseUrl: 'https://breakwater.example.test' }),
      }),
    ],
  }));

describe('breaker orchestration: the webhook channel', () => {
  it('posts a signed trip notice the receiver verifies, without the approval link', async () => {
    receiver.received.length = 0;
    receiver.answer(undefined);
    const e = await episodeTo({ url: receiver.url, format: 'json', signingKey: KEY });
    receiverNow = Math.floor(e.host.now / 1000);
    await untilAwaitingApproval(e);

    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook?.signatureValid).toBe(true);
    expect(hook?.headers[WebhookHeader.delivery]).toBe(`${e.tripId}:tripped`);
    expect(hook?.json).toMatchObject({
      version: 1,
      kind: 'tripped',
      severity: 'critical',
      tripId: e.tripId,
      functionName: 'ProcessSensorEvents',
      facts: { 'Failures in window': '6', 'Dead letters': '7', Trigger: 'disabled' },
      dashboardUrl: 'https://breakwater.example.test/api/breaker/dashboard',
    });
    expect(hook?.body).not.toMatch(/token=|\/api\/approve/);
    // The email (with the link) went out too, before the webhook.
    expect(e.subjects()).toEqual([expect.stringMatching(/approval needed/)]);

    // A tampered body or a replay outside the tolerance fails the receiver's check.
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(receiver.received.map((r) => r.json.kind)).toEqual(['tripped', 'resumed']);
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
  });

  it('keeps tripping, disabling and emailing when the receiver is down, and reports the lost webhook', async () => {
    const downUrl = `http://127.0.0.1:${await freePort()}/hooks/down`;
    const e = await episodeTo({ url: downUrl, format: 'json', signingKey: KEY });
    await e.host.run();
    // The email went out and the trigger is off before the first webhook attempt failed.
    expect(e.triggerSwitch.disabled.get('ProcessSensorEvents')).toBe(true);
    expect(e.subjects()).toEqual([expect.stringMatching(/approval needed/)]);
    for (let i = 0; i < SETTINGS.retry.maxAttempts; i++) await e.host.fireNextTimer();

    expect(e.activities(sendActivityName('webhook'))).toHaveLength(SETTINGS.retry.maxAttempts);
    expect(e.status()).toMatchObject({
      phase: 'awaiting-approval',
      disable: { kind: 'switched', disabled: true },
    });
    expect(e.status().webhookError).toMatch(/^tripped: webhook 127\.0\.0\.1:\d+ unreachable/);
    expect(e.status().webhookError).not.toMatch(/hooks\/down/);
    expect((await e.store.getState()).state).toBe('OPEN');
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status().phase).toBe('probation');
  });

  it('waits for the approval while the webhook is still being retried: the emailed link works at once', async () => {
    const downUrl = `http://127.0.0.1:${await freePort()}/hooks/down`;
    const e = await episodeTo({ url: downUrl, format: 'json', signingKey: KEY });
    await e.host.run();
    // The first webhook attempt failed and its retry waits; the email with the link is out.
    expect(e.activities(sendActivityName('webhook'))).toHaveLength(1);
    expect(e.subjects()).toEqual([expect.stringMatching(/approval needed/)]);
    // The approval page accepts an approval only in this phase: it must not wait for the webhook.
    expect(e.status().phase).toBe('awaiting-approval');
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({ phase: 'probation', approvedBy: 'oncall@example.test' });
    expect((await e.store.getState()).state).toBe('HALF_OPEN');
    expect(e.triggerSwitch.disabled.get('ProcessSensorEvents')).toBe(false);
    // The tripped webhook was not waited for: fewer attempts so far than the retry policy allows.
    expect(e.activities(sendActivityName('webhook')).length).toBeLessThan(SETTINGS.retry.maxAttempts);
  });

  it('does not retry a receiver that refuses the notice (401)', async () => {
    receiver.received.length = 0;
    receiver.answer(401);
    const e = await episodeTo({
      url: receiver.url,
      format: 'json',
      signingKey: 'not-the-receivers-key-0123456789abcdef',
    });
    receiverNow = Math.floor(e.host.now / 1000);
    await untilAwaitingApproval(e);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.signatureValid).toBe(false);
    expect(e.activities(sendActivityName('webhook'))).toHaveLength(1);
    expect(e.status().webhookError).toBe(
      `tripped: webhook ${new URL(receiver.url).host} refused the notice (401)`,
    );
    receiver.answer(undefined);
  });

  it('records its channels by name in sending order, the email first (a history without them is not read)', async () => {
    receiver.received.length = 0;
    receiver.answer(undefined);
    const e = await episodeTo({ url: receiver.url, format: 'json', signingKey: KEY });
    receiverNow = Math.floor(e.host.now / 1000);
    await untilAwaitingApproval(e);
    const scheduled = e.host.history.find(
      (h) => h.EventType === HistoryEventType.TaskScheduled && h.Name === BreakerActivity.openTrip,
    );
    const completed = e.host.history.find(
      (h) => h.EventType === HistoryEventType.TaskCompleted && h.TaskScheduledId === scheduled?.EventId,
    );
    const opened = JSON.parse(String(completed?.Result)) as { settings: Record<string, unknown> };
    expect(opened.settings.channels).toEqual(['email', 'webhook']);
    expect(opened.settings).not.toHaveProperty('webhook');
    expect(e.host.history[1]).toMatchObject({ EventType: HistoryEventType.ExecutionStarted, Version: '1.0' });
  });
});
