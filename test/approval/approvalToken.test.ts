import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { refuseSituation, refuseToken } from '../../src/approval/approvalRefusal';
import {
  approvalLink,
  MAX_TOKEN_LENGTH,
  signApprovalToken,
  type SigningKeys,
  verifyApprovalToken,
} from '../../src/approval/approvalToken';

const CURRENT = 'current-signing-key-0123456789abcdef0123456789';
const PREVIOUS = 'previous-signing-key-0123456789abcdef012345678';
const KEYS: SigningKeys = [CURRENT];
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;
const request = { functionName: 'ProcessSensorEvents', tripId: 'trip-42', expiresAt: NOW + 24 * HOUR };

const sign = (keys: SigningKeys = KEYS) => signApprovalToken(request, keys, NOW);

/** Flips one character of `text` at `index` to another character of the base64url alphabet. */
function flip(text: string, index: number): string {
  const c = text[index] === 'A' ? 'B' : 'A';
  return text.slice(0, index) + c + text.slice(index + 1);
}

/** Builds a token around an arbitrary payload text, correctly signed, to exercise the strict parser. */
function signedRaw(payloadJson: string, key = CURRENT): string {
  const encoded = Buffer.from(payloadJson, 'utf8').toString('base64url');
  return `${encoded}.${createHmac('sha256', key).update(encoded).digest('base64url')}`;
}

describe('approval tokens', () => {
  it('round-trips: a token it signed verifies with the payload and the key used', () => {
    const result = verifyApprovalToken(sign(), KEYS, NOW + HOUR);
    expect(result).toMatchObject({ ok: true, keyIndex: 0, payload: request });
    expect(refuseToken(result, request.functionName)).toMatchObject({ payload: request });
  });

  it('uses a random nonce, so two links for the same trip differ', () => {
    const a = sign();
    const b = sign();
    expect(a).not.toBe(b);
    expect(verifyApprovalToken(a, KEYS, NOW).ok).toBe(true);
    expect(verifyApprovalToken(b, KEYS, NOW).ok).toBe(true);
  });

  it('takes an injected nonce source', () => {
    const fixed = (size: number) => Buffer.alloc(size, 7);
    expect(signApprovalToken(request, KEYS, NOW, fixed)).toBe(signApprovalToken(request, KEYS, NOW, fixed));
  });

  it('rejects a token whose payload was changed by one character', () => {
    const token = sign();
    expect(verifyApprovalToken(flip(token, 5), KEYS, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('rejects a token whose signature was changed by one character', () => {
    const token = sign();
    expect(verifyApprovalToken(flip(token, token.indexOf('.') + 3), KEYS, NOW)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('rejects a truncated token', () => {
    const token = sign();
    expect(verifyApprovalToken(token.slice(0, -4), KEYS, NOW).ok).toBe(false);
    expect(verifyApprovalToken(token.slice(0, token.indexOf('.')), KEYS, NOW)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('rejects a signature that is a prefix of the right one, cut at any whole byte', () => {
    const token = sign();
    const [encoded] = token.split('.') as [string];
    const full = createHmac('sha256', CURRENT).update(encoded, 'ascii').digest();
    // Cut on whole bytes and re-encoded: valid base64url every time, so only the length check can refuse it.
    for (const bytes of [1, 16, 24, 30, 31]) {
      const prefix = full.subarray(0, bytes).toString('base64url');
      expect(verifyApprovalToken(`${encoded}.${prefix}`, KEYS, NOW).ok).toBe(false);
    }
    expect(verifyApprovalToken(`${encoded}.${full.toString('base64url')}`, KEYS, NOW).ok).toBe(true);
  });

  it('rejects a token signed with a key it does not know', () => {
    const other: SigningKeys = ['some-other-key-that-is-long-enough-000000000'];
    expect(verifyApprovalToken(sign(other), KEYS, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('rejects an expired token, from the expiry instant on', () => {
    const token = sign();
    expect(verifyApprovalToken(token, KEYS, request.expiresAt - 1).ok).toBe(true);
    expect(verifyApprovalToken(token, KEYS, request.expiresAt)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses to sign a link that is already expired', () => {
    expect(() => signApprovalToken({ ...request, expiresAt: NOW }, KEYS, NOW)).toThrow(/already be expired/);
  });

  it('a valid token is refused for another function, and for a trip that is not the current one', () => {
    const verification = verifyApprovalToken(sign(), KEYS, NOW);
    expect(refuseToken(verification, 'OtherFunction')).toEqual({ refusal: 'other-function' });
    expect(refuseToken({ ok: false, reason: 'expired' }, request.functionName)).toEqual({
      refusal: 'expired',
    });
    const situation = {
      state: { state: 'OPEN' as const, tripId: 'trip-43', since: NOW },
      trip: undefined,
      failuresInWindow: 0,
      deadLetters: 0,
      orchestration: undefined,
    };
    expect(refuseSituation(request.tripId, situation)).toBe('stale-trip');
  });

  describe('key rotation', () => {
    it('accepts a token signed with the previous key and says which key matched', () => {
      const oldToken = sign([PREVIOUS]);
      expect(verifyApprovalToken(oldToken, [CURRENT, PREVIOUS], NOW)).toMatchObject({
        ok: true,
        keyIndex: 1,
      });
    });

    it('signs with the current (first) key', () => {
      expect(verifyApprovalToken(sign([CURRENT, PREVIOUS]), [CURRENT], NOW).ok).toBe(true);
    });

    it('rejects the old key once it is removed from the settings', () => {
      expect(verifyApprovalToken(sign([PREVIOUS]), [CURRENT], NOW)).toEqual({
        ok: false,
        reason: 'bad-signature',
      });
    });
  });

  describe('malformed input', () => {
    const good = () => ({ v: 1, ...request, nonce: 'AAAAAAAAAAAAAAAAAAAAAA' });
    it.each([
      ['empty', ''],
      ['huge', 'A'.repeat(MAX_TOKEN_LENGTH + 1)],
      ['not base64url', 'abc+/=.def'],
      ['three parts', 'aaaa.bbbb.cccc'],
      ['one part', 'aaaabbbb'],
      ['padded base64', `${sign().split('.')[0] ?? ''}==.${sign().split('.')[1] ?? ''}`],
    ])('rejects %s', (_name, token) => {
      expect(verifyApprovalToken(token, KEYS, NOW)).toEqual({ ok: false, reason: 'malformed' });
    });

    it('rejects a value that is not a string', () => {
      expect(verifyApprovalToken(undefined, KEYS, NOW)).toEqual({ ok: false, reason: 'malformed' });
      expect(verifyApprovalToken(['a.b'], KEYS, NOW)).toEqual({ ok: false, reason: 'malformed' });
    });

    // Correctly signed, so these prove the payload parser is strict on its own.
    it.each([
      ['a JSON array payload', JSON.stringify([1, 2, 3])],
      ['a non-JSON payload', 'not json {'],
      ['a string expiry', JSON.stringify({ ...good(), expiresAt: String(request.expiresAt) })],
      ['a numeric trip id', JSON.stringify({ ...good(), tripId: 42 })],
      ['an extra field', JSON.stringify({ ...good(), admin: true })],
      ['a missing nonce', JSON.stringify({ v: 1, ...request })],
      ['an unknown version', JSON.stringify({ ...good(), v: 2 })],
      ['an absurdly long trip id', JSON.stringify({ ...good(), tripId: 't'.repeat(300) })],
      ['a function name with a dash', JSON.stringify({ ...good(), functionName: 'Process-Events' })],
    ])('rejects %s even when signed', (_name, json) => {
      expect(verifyApprovalToken(signedRaw(json), KEYS, NOW)).toEqual({ ok: false, reason: 'malformed' });
    });

    it('accepts the same hand-built payload when it is well formed (the cases above differ only in one way)', () => {
      expect(verifyApprovalToken(signedRaw(JSON.stringify(good())), KEYS, NOW).ok).toBe(true);
    });
  });

  describe('approvalLink', () => {
    it('points at the approve route with the token as a query parameter', () => {
      const token = sign();
      const link = approvalLink('https://func-breakwater.azurewebsites.net/', token);
      const url = new URL(link);
      expect(url.origin + url.pathname).toBe('https://func-breakwater.azurewebsites.net/api/approve');
      expect(url.searchParams.get('token')).toBe(token);
    });
  });
});
