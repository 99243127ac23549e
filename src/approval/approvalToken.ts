import { createHmac, randomBytes as cryptoRandomBytes, timingSafeEqual } from 'node:crypto';

import type { ApprovalTokenPayload, TokenVerification } from './approvalTokenTypes';
import { ApprovalTokenSigningError } from './errors';
import { parseApprovalPayload } from './parseApprovalPayload';

/**
 * Approval tokens: `base64url(JSON payload) "." base64url(HMAC-SHA256(key, encoded payload))`.
 * The MAC covers the transmitted bytes, so no JSON canonicalisation is needed.
 */

/** Longest token accepted; real tokens are about 250 characters. Bounds work done on hostile input. */
export const MAX_TOKEN_LENGTH = 1024;
const NONCE_BYTES = 16;
const MAC_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Current key first; later keys are still accepted (rotation). */
export type SigningKeys = readonly [string, ...string[]];

/** What the caller provides; the nonce is added here. */
export type ApprovalTokenRequest = Omit<ApprovalTokenPayload, 'nonce'>;

/** Signs with the current key. `randomBytes` is injectable so tests can pin the nonce. */
export function signApprovalToken(
  request: ApprovalTokenRequest,
  keys: SigningKeys,
  now: number,
  randomBytes: (size: number) => Buffer = cryptoRandomBytes,
): string {
  if (request.expiresAt <= now)
    throw new ApprovalTokenSigningError('the approval link would already be expired');
  const payload: ApprovalTokenPayload = { ...request, nonce: randomBytes(NONCE_BYTES).toString('base64url') };
  const body = { v: 1, ...payload };
  const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  // Sign and parse back what we produced, so an unsignable request fails here, not at the approver.
  if (parseApprovalPayload(Buffer.from(encoded, 'base64url').toString('utf8')) === undefined)
    throw new ApprovalTokenSigningError(
      'function name, trip id or expiry is not valid for an approval token',
    );
  const token = `${encoded}.${mac(keys[0], encoded).toString('base64url')}`;
  if (token.length > MAX_TOKEN_LENGTH) throw new ApprovalTokenSigningError('approval token too long');
  return token;
}

/** Checks shape, signature (any accepted key, constant time), payload fields and expiry, in that order. */
export function verifyApprovalToken(token: unknown, keys: SigningKeys, now: number): TokenVerification {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
    return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [encoded, signature] = parts as [string, string];
  const given = decodeBase64url(signature);
  if (!isBase64url(encoded) || given?.length !== MAC_BYTES) return { ok: false, reason: 'malformed' };

  // Nothing from the payload is interpreted before its signature checks out.
  const keyIndex = keys.findIndex((key) => constantTimeEqual(mac(key, encoded), given));
  if (keyIndex < 0) return { ok: false, reason: 'bad-signature' };

  const payload = parseApprovalPayload(Buffer.from(encoded, 'base64url').toString('utf8'));
  if (payload === undefined) return { ok: false, reason: 'malformed' };
  if (now >= payload.expiresAt) return { ok: false, reason: 'expired' };
  return { ok: true, payload, keyIndex };
}

function mac(key: string, encodedPayload: string): Buffer {
  return createHmac('sha256', key).update(encodedPayload, 'ascii').digest();
}

/** `timingSafeEqual` throws on unequal lengths; the guard keeps that from becoming an exception path. */
function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Strict: only the URL-safe alphabet, no padding, and canonical (re-encodes to the same text). */
function isBase64url(text: string): boolean {
  return BASE64URL.test(text) && Buffer.from(text, 'base64url').toString('base64url') === text;
}

function decodeBase64url(text: string): Buffer | undefined {
  return isBase64url(text) ? Buffer.from(text, 'base64url') : undefined;
}

export { APPROVAL_ROUTE, approvalLink } from './approvalLink';
