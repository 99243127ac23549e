import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers of a signed webhook (lower case, as Node's HTTP server presents them). */
export const WebhookHeader = {
  timestamp: 'x-breakwater-timestamp',
  signature: 'x-breakwater-signature',
  delivery: 'x-breakwater-delivery',
} as const;

/** The Standard Webhooks headers (https://www.standardwebhooks.com/), sent beside the v1= ones. */
export const StandardWebhookHeader = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Version tag of the signature scheme, so a future scheme can be sent beside this one. */
const SCHEME = 'v1';

/**
 * The scheme (docs/notify-and-control.md#signature): `v1=` + hex HMAC-SHA256 over
 * `<timestamp>.<raw body>` with the shared key. The timestamp (Unix seconds) is signed too, so a
 * receiver that checks its age refuses a captured request replayed later.
 */
export function signWebhook(body: string, key: string, timestampSeconds: number): string {
  return `${SCHEME}=${mac(key, timestampSeconds, body)}`;
}

export interface WebhookVerification {
  readonly body: string;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
  /** Keys the receiver accepts (current first; the previous one during a rotation). */
  readonly keys: readonly string[];
  readonly nowSeconds: number;
  /** Oldest accepted timestamp, relative to now (default 300 s). */
  readonly toleranceSeconds?: number;
}

/** What a receiver runs: constant-time comparison, timestamp within the tolerance, any accepted key. */
export function verifyWebhookSignature(input: WebhookVerification): boolean {
  const { timestamp, signature } = input;
  if (timestamp === undefined || signature === undefined || !/^\d{1,12}$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (Math.abs(input.nowSeconds - seconds) > (input.toleranceSeconds ?? 300)) return false;
  const given = Buffer.from(signature);
  return input.keys.some((key) => {
    const expected = Buffer.from(`${SCHEME}=${mac(key, seconds, input.body)}`);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

function mac(key: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', key).update(`${timestampSeconds}.${body}`).digest('hex');
}

/**
 * Standard Webhooks (spec 1.0.0, symmetric): `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`,
 * so the delivery id is signed too (a replay under a new id does not verify). The key bytes are the
 * UTF-8 of the signing key: receivers configure `whsec_` + base64 of it (`standardWebhooksSecret`).
 * The id must hold no `.` (it delimits the signed content); delivery ids are `<tripId>:<kind>[:<n>]`.
 */
export function signStandardWebhook(id: string, body: string, key: string, timestampSeconds: number): string {
  if (id.includes('.')) throw new Error('a Standard Webhooks id must not contain "."');
  const digest = createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}

/** The secret a Standard Webhooks verifier takes for this signing key. */
export function standardWebhooksSecret(key: string): string {
  return `whsec_${Buffer.from(key, 'utf8').toString('base64')}`;
}
