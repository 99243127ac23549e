import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { signApprovalToken, type SigningKeys, verifyApprovalToken } from '../../src/approval/approvalToken';

const KEYS: SigningKeys = ['property-test-key-0123456789abcdef0123456789'];
const NOW = Date.UTC(2026, 0, 15);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';

describe('approval token properties', () => {
  it('any single-character change to a token makes it fail verification', () => {
    const token = signApprovalToken(
      { functionName: 'ProcessSensorEvents', tripId: 'trip-1', expiresAt: NOW + 3_600_000 },
      KEYS,
      NOW,
    );
    fc.assert(
      fc.property(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...Array.from(ALPHABET)),
        (index, replacement) => {
          fc.pre(token[index] !== replacement);
          const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
          expect(verifyApprovalToken(tampered, KEYS, NOW).ok).toBe(false);
        },
      ),
      { numRuns: 500, seed: 20260115 },
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), (input) => {
        expect(verifyApprovalToken(input, KEYS, NOW).ok).toBe(false);
      }),
      { numRuns: 500, seed: 20260115 },
    );
  });
});
