import { describe, expect, it } from 'vitest';

import type { BreakerPolicy } from '../../src/breaker/breakerPolicy';
import { readableTrips } from '../../src/breaker/breakerStore';
import { InvalidTransitionError } from '../../src/breaker/errors';
import { failures, type OpenStore, T0, testPolicy, uniqueName } from './breakerStoreFixture';
import { breakerStoreTripContract } from './breakerStoreTripContract';
import { tripRuleCases } from './tripRuleCases';

/**
 * The one contract every BreakerStore adapter passes (docs/how-it-works.md#breaker-store). Time is passed
 * explicitly, so bucket boundaries are crossed without waiting.
 */
export function breakerStoreContract(adapter: string, open: OpenStore) {
  const fresh = (policy: BreakerPolicy = testPolicy) => open(uniqueName('c'), policy);

  describe(`BreakerStore contract: ${adapter}`, () => {
    it('starts CLOSED with no trip and an empty window', async () => {
      const store = await fresh();
      expect(await store.getState()).toEqual({ state: 'CLOSED', tripId: undefined, since: 0 });
      expect(readableTrips(await store.history(10))).toEqual([]);
      const window = await store.windowBuckets(T0);
      expect(window).toHaveLength(10);
      expect(window.every((b) => b.failures === 0)).toBe(true);
      await store.close();
    });

    it('records failures and sums them across calls', async () => {
      const store = await fresh();
      expect(await store.record(failures(2), T0)).toEqual({
        failuresInWindow: 2,
        state: 'CLOSED',
        tripped: false,
        tripId: undefined,
      });
      expect((await store.record(failures(3), T0 + 500)).failuresInWindow).toBe(5);
      expect((await store.record([], T0 + 900)).failuresInWindow).toBe(5);
      await store.close();
    });

    it('slides the window across bucket boundaries', async () => {
      const store = await fresh();
      await store.record(failures(2), T0 + 999); // bucket 0
      await store.record(failures(3), T0 + 4_500); // bucket 4
      expect((await store.record([], T0 + 9_999)).failuresInWindow).toBe(5); // buckets 0..9
      expect((await store.record([], T0 + 10_000)).failuresInWindow).toBe(3); // bucket 0 left
      const window = await store.windowBuckets(T0 + 10_000);
      expect(window[0]).toEqual({ start: T0 + 1_000, failures: 0 });
      expect(window.find((b) => b.start === T0 + 4_000)?.failures).toBe(3);
      expect(window[9]).toEqual({ start: T0 + 10_000, failures: 0 });
      expect((await store.record([], T0 + 13_999)).failuresInWindow).toBe(3); // buckets 4..13
      expect((await store.record([], T0 + 14_000)).failuresInWindow).toBe(0); // bucket 4 left
      await store.close();
    });

    it('forgets everything once a full window passes without failures (expiry)', async () => {
      const store = await fresh();
      await store.record(failures(4), T0);
      await store.record(failures(1), T0 + 3_000);
      const later = T0 + 60_000;
      expect((await store.record(failures(1), later)).failuresInWindow).toBe(1);
      expect((await store.windowBuckets(later)).reduce((s, b) => s + b.failures, 0)).toBe(1);
      await store.close();
    });

    it('compare-and-set: a wrong from-state or trip id changes nothing', async () => {
      const store = await fresh();
      const { tripId } = await store.record(failures(6), T0);
      const before = await store.getState();
      expect(await store.transition('OPEN', 'HALF_OPEN', 'not-the-trip', T0 + 1)).toBe(false);
      expect(await store.transition('OPEN', 'HALF_OPEN', undefined, T0 + 1)).toBe(false);
      expect(await store.transition('HALF_OPEN', 'CLOSED', tripId, T0 + 1)).toBe(false);
      expect(await store.getState()).toEqual(before);
      expect(await store.transition('OPEN', 'HALF_OPEN', tripId, T0 + 2)).toBe(true);
      expect(await store.getState()).toEqual({ state: 'HALF_OPEN', tripId, since: T0 + 2 });
      expect(await store.transition('OPEN', 'HALF_OPEN', tripId, T0 + 3)).toBe(false);
      expect(await store.transition('HALF_OPEN', 'CLOSED', tripId, T0 + 4)).toBe(true);
      expect(await store.getState()).toEqual({ state: 'CLOSED', tripId, since: T0 + 4 });
      await store.close();
    });

    it('refuses transitions into OPEN or out of CLOSED with a typed error', async () => {
      const store = await fresh();
      const attempt = (from: 'CLOSED' | 'HALF_OPEN', to: 'OPEN' | 'HALF_OPEN') =>
        Promise.resolve()
          .then(() => store.transition(from, to, undefined, T0))
          .catch((e: unknown) => e);
      expect(await attempt('CLOSED', 'OPEN')).toBeInstanceOf(InvalidTransitionError);
      expect(await attempt('HALF_OPEN', 'OPEN')).toBeInstanceOf(InvalidTransitionError);
      expect(await attempt('CLOSED', 'HALF_OPEN')).toBeInstanceOf(InvalidTransitionError);
      expect(await store.getState()).toMatchObject({ state: 'CLOSED' });
      await store.close();
    });

    it('resetWindow empties the window but keeps the state', async () => {
      const store = await fresh();
      const { tripId } = await store.record(failures(7), T0);
      await store.resetWindow();
      expect(await store.record([], T0 + 10)).toEqual({
        failuresInWindow: 0,
        state: 'OPEN',
        tripped: false,
        tripId,
      });
      expect((await store.record(failures(1), T0 + 20)).failuresInWindow).toBe(1);
      await store.close();
    });

    it('gives 8 concurrent writers (separate clients) the exact total and exactly one trip', async () => {
      const name = uniqueName('k');
      const policy = { ...testPolicy, threshold: 50 };
      const writers = await Promise.all(Array.from({ length: 8 }, () => open(name, policy)));
      const results = await Promise.all(
        writers.map(async (store, w) => {
          const mine = [];
          for (let i = 0; i < 10; i++) mine.push(await store.record(failures(1, `w${w}-`), T0 + i * 10));
          return mine;
        }),
      );
      const all = results.flat();
      expect(all.filter((r) => r.tripped)).toHaveLength(1);
      expect((await writers[0]!.record([], T0 + 500)).failuresInWindow).toBe(80);
      const tripIds = new Set(all.filter((r) => r.state === 'OPEN').map((r) => r.tripId));
      expect(tripIds.size).toBe(1);
      expect(await writers[0]!.history(10)).toHaveLength(1);
      await Promise.all(writers.map((s) => s.close()));
    });

    breakerStoreTripContract(fresh);
    tripRuleCases(fresh);
  });
}
