import { describe, expect, it } from 'vitest';

import { nextRetryDueAt, seededRandom } from '../../sim/host/hostConfig';

// The host's RandomizedExponentialBackoffStrategy: min + r·2^(n−1)·min, r in [0.8, 1.2), capped.
describe('host retry delays (randomised as the host computes them)', () => {
  const policy = { maxRetryCount: -1, minimumMs: 1_000, maximumMs: 60_000 };

  it('stays within the host formula for every retry and reaches the cap', () => {
    const random = seededRandom(7);
    for (let n = 1; n <= 8; n++) {
      const delay = (nextRetryDueAt(policy, n - 1, 0, random) ?? NaN) - 0;
      const low = Math.min(1_000 + 0.8 * 2 ** (n - 1) * 1_000, 60_000);
      const high = Math.min(1_000 + 1.2 * 2 ** (n - 1) * 1_000, 60_000);
      expect(delay).toBeGreaterThanOrEqual(Math.round(low));
      expect(delay).toBeLessThanOrEqual(Math.round(high));
    }
    expect(nextRetryDueAt(policy, 20, 0, random)).toBe(60_000);
  });

  it('draws different delays for the same retry, repeatably for one seed', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => nextRetryDueAt(policy, 2, 0, random));
    };
    expect(new Set(draw(3)).size).toBeGreaterThan(10);
    expect(draw(3)).toEqual(draw(3));
  });

  it('gives up after a finite maxRetryCount', () => {
    expect(nextRetryDueAt({ ...policy, maxRetryCount: 2 }, 2, 0, seededRandom(1))).toBeUndefined();
  });
});
