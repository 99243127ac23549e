import { ExponentialBackoff } from 'cockatiel';
import { describe, expect, it } from 'vitest';

// The per-event retry relies on cockatiel's default generator (decorrelated jitter): check the
// property we depend on, delays bounded by the configured maximum and spread out by jitter.
describe('the per-event backoff', () => {
  it('stays within the maximum delay and is jittered', () => {
    const seen = new Set<number>();
    for (let run = 0; run < 50; run++) {
      let backoff = new ExponentialBackoff({ initialDelay: 200, maxDelay: 5000 }).next();
      for (let attempt = 0; attempt < 8; attempt++) {
        expect(backoff.duration).toBeGreaterThanOrEqual(0);
        expect(backoff.duration).toBeLessThanOrEqual(5000);
        seen.add(Math.round(backoff.duration));
        backoff = backoff.next(undefined);
      }
    }
    expect(seen.size).toBeGreaterThan(50);
  });
});
