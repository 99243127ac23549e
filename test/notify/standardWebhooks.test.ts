/**
 * Deliveries carry Standard Webhooks headers (https://www.standardwebhooks.com/, spec 1.0.0) beside the
 * v1= ones, so a receiver can use an existing verifier. The verifier below is written from the spec,
 * not from the app's code: secret `whsec_<base64 key>`, content `<webhook-id>.<webhook-timestamp>.<body>`,
 * `webhook-signature` a space-delimited list of `v1,<base64 HMAC-SHA256>`, constant-time comparison and
 * a timestamp tolerance.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { WebhookNotice } from '../../src/notify/webhook/webhookNotice';
import { makeWebhookSender } from '../../src/notify/webhook/webhookSender';
import { standardWebhooksSecret } from '../../src/notify/webhook/webhookSignature';

const KEY = 'current-webhook-key-0123456789abcdef-0123';
const NOW = Date.UTC(2026, 0, 1, 0, 0, 20);

/** What a receiver configures: the key as Standard Webhooks serialises a symmetric secret. */
const SECRET = `whsec_${Buffer.from(KEY, 'utf8').toString('base64')}`;

/** An independent Standard Webhooks verifier (symmetric, `v1`), per the spec's "Verifying signatures". */
function standardVerify(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  nowSeconds: number,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (id === undefined || timestamp === undefined || signatures === undefined) return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 5 * 60) return false;
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, encoded] = entry.split(',');
    if (version !== 'v1' || encoded === undefined) return false;
    const given = Buffer.from(encoded, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const notice: WebhookNotice = {
  deliveryId: 't1767225620000-62b811c58b36:reminder:2',
  kind: 'reminder',
  severity: 'critical',
  tripId: 't1767225620000-62b811c58b36',
  functionName: 'ProcessSensorEvents',
  at: '2026-01-01T00:00:20.000Z',
  title: 'ProcessSensorEvents still stopped',
  summary: 'Processing is paused.',
  facts: [['Trip id', 't1767225620000-62b811c58b36']],
  dashboardUrl: 'https://app.example.test/api/breaker/dashboard',
};

let server: http.Server;
let url: string;
const received: { headers: Record<string, string | undefined>; body: string }[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
      );
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(
  () =>
    new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    ),
);

async function deliver() {
  received.length = 0;
  await makeWebhookSender({ url, format: 'json', signingKey: KEY }, { clock: { now: () => NOW } }).send(
    notice,
  );
  const [delivery] = received;
  if (delivery === undefined) throw new Error('nothing was delivered');
  return delivery;
}

describe('Standard Webhooks headers on every signed delivery', () => {
  it('verify with an independent implementation of the scheme, the id being the delivery id', async () => {
    const { headers, body } = await deliver();
    expect(headers['webhook-id']).toBe(notice.deliveryId);
    expect(headers['webhook-id']).toBe(headers['x-breakwater-delivery']);
    // The spec forbids a "." in the id (it delimits the signed content).
    expect(headers['webhook-id']).not.toContain('.');
    expect(headers['webhook-timestamp']).toBe(String(NOW / 1000));
    expect(standardVerify(SECRET, headers, body, NOW / 1000 + 30)).toBe(true);
    // The secret the docs tell receivers to configure is that one.
    expect(standardWebhooksSecret(KEY)).toBe(SECRET);
    // The v1= scheme is still sent beside it, so existing receivers keep verifying.
    expect(headers['x-breakwater-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('sign the id: a replay with a new id, a changed body or a stale timestamp does not verify', async () => {
    const { headers, body } = await deliver();
    const now = NOW / 1000 + 30;
    expect(
      standardVerify(SECRET, { ...headers, 'webhook-id': `${notice.deliveryId}-replayed` }, body, now),
    ).toBe(false);
    expect(standardVerify(SECRET, headers, body.replace('still', 'no longer'), now)).toBe(false);
    expect(standardVerify(SECRET, headers, body, NOW / 1000 + 301)).toBe(false);
    expect(
      standardVerify(
        `whsec_${Buffer.from('another-key-0123456789abcdef-0123456').toString('base64')}`,
        headers,
        body,
        now,
      ),
    ).toBe(false);
  });
});
