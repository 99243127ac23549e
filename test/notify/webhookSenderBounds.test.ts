/**
 * The webhook sender against receivers that misbehave on the wire: an answer that never ends, a huge
 * one, a receiver that never answers. Each attempt ends within its bound and reads at most a few KiB.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { WebhookDeliveryError } from '../../src/notify/webhook/errors';
import type { WebhookNotice } from '../../src/notify/webhook/webhookNotice';
import { makeWebhookSender } from '../../src/notify/webhook/webhookSender';

const notice: WebhookNotice = {
  deliveryId: 't1-abc:tripped',
  kind: 'tripped',
  severity: 'critical',
  tripId: 't1-abc',
  functionName: 'ProcessSensorEvents',
  at: '2026-01-01T00:00:00.000Z',
  title: 'stopped',
  summary: 'paused',
  facts: [],
  dashboardUrl: 'https://app.example.test/api/breaker/dashboard',
};

type Behaviour = 'endless' | 'silent';
let behaviour: Behaviour = 'endless';
/** Bytes the receiver managed to push into the connection before the sender let go of it. */
let pushed = 0;
let closed: Promise<void> = Promise.resolve();
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    let done!: () => void;
    closed = new Promise((r) => (done = r));
    res.on('close', done);
    if (behaviour === 'silent') return; // headers never come
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) pushed += chunk.length;
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => {
        r();
      });
    }),
);

const sender = (timeoutMs: number) =>
  makeWebhookSender({ url, format: 'json', signingKey: undefined }, { clock: { now: () => 0 }, timeoutMs });

describe('webhook sender: bounded answers and attempts', () => {
  it('reads at most a few KiB of an answer that never ends, then lets go of the connection', async () => {
    behaviour = 'endless';
    pushed = 0;
    // A bound far above what reading a capped answer takes: the send must not wait for it.
    const send = sender(5_000).send(notice);
    await expect(send).resolves.toBeUndefined();
    await closed;
    // Loopback socket buffers hold a few MiB; reading the whole answer would push without end.
    expect(pushed).toBeLessThan(16 * 1024 * 1024);
  });

  it('gives up on a receiver that never answers after the per-attempt bound, as a retryable failure', async () => {
    behaviour = 'silent';
    const error: unknown = await sender(300)
      .send(notice)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookDeliveryError);
    expect((error as Error).message).toMatch(/^webhook 127\.0\.0\.1:\d+ unreachable or too slow/);
  });
});
