import { describe, expect, it } from 'vitest';

import { credentialRetryDelayMs } from '../../src/breaker/credentialRetryDelay';

describe('retry delays of a failed credentials request', () => {
  it('retries at once, then after 0.5, 1, 2 and 4 s, then every 5 s', () => {
    const delays = Array.from({ length: 9 }, (_, i) => credentialRetryDelayMs(i + 1, () => 0));
    expect(delays).toEqual([0, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000]);
  });

  it('jitter only shortens a delay, by at most a fifth, and never past 5 s', () => {
    for (const failures of [2, 3, 4, 5, 6, 50]) {
      const base = credentialRetryDelayMs(failures, () => 0);
      const jittered = credentialRetryDelayMs(failures, () => 0.999);
      expect(jittered).toBeLessThan(base);
      expect(jittered).toBeGreaterThanOrEqual(base * 0.8);
      expect(jittered).toBeLessThanOrEqual(5_000);
    }
    expect(credentialRetryDelayMs(1, () => 0.999)).toBe(0);
  });
});
