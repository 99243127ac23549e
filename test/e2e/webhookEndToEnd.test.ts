/**
 * The webhook channel wired from settings, as in Azure: WEBHOOK_URL, WEBHOOK_FORMAT and
 * WEBHOOK_SIGNING_KEY reach the orchestration's activities through the composition root; a trip posts a
 * signed notice to a local receiver while the trigger is disabled through ARM and the email goes out.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const KEY = 'end-to-end-webhook-key-0123456789abcdefgh';
let world: BreakwaterWorld;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver({
    keys: [KEY],
    nowSeconds: () => Math.floor(world.clock.now() / 1000),
  });
  world = await BreakwaterWorld.create({
    storageConnectionString: inject('storageConnectionString'),
    settings: { WEBHOOK_URL: receiver.url, WEBHOOK_FORMAT: 'json', WEBHOOK_SIGNING_KEY: KEY },
  });
});
afterAll(async () => {
  await world.close();
  await receiver.close();
});

describe('webhook channel from settings', () => {
  it('a trip disables the trigger, emails the link and posts a signed notice the receiver verifies', async () => {
    const tripId = await world.runtime.breakerStore.openManually('webhook drill', world.clock.now());
    world.clock.advance(5 * 60_000); // past the watchdog's grace: it starts the orchestration
    await world.runWatchdog();
    await world.durable.catchUp();

    expect(world.isDisabled()).toBe(true);
    expect(world.approvalLinks()).toHaveLength(1);
    expect(receiver.received.map((r) => [r.json.kind, r.json.tripId, r.signatureValid])).toEqual([
      ['tripped', tripId, true],
    ]);
    expect(receiver.received[0]?.body).not.toContain('token=');
  });
});
