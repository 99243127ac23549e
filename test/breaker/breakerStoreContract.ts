import { readableTrips } from '../../src/breaker/breakerStore';
import { describe, expect, it } from 'vitest';

import { isInvalidTransitionError } from '../../src/breaker/breakerErrors';
import type { BreakerPolicy } from '../../src/breaker/breakerPolicy';
import type { BreakerStore } from '../../src/breaker/breakerStore';
import type { FailureSample } from '../../src/kernel/failureSample';

/** Opens a store on the breaker `name`; stores opened on one name share the window and state. */
export type OpenStore = (name: string, policy: BreakerPolicy) => Promise<BreakerStore>;

/** 2026-01-01T00:00:00Z: a bucket boundary, so offsets below read as bucket positions. */
export const T0 = Date.UTC(2026, 0, 1);

export const testPolicy: BreakerPolicy = {
  threshold: 5,
  probationThreshold: 2,
  windowMs: 10_000,
  bucketMs: 1_000,
  historyLimit: 3,
};

export const failures = (n: number, prefix = 'e'): FailureSample[] =>
  Array.from({ length: n }, (_, i) => ({
    eventKey: `${prefix}${i}`,
    kind: 'transient',
    message: `boom ${i}`,
  }));

let counter = 0;
export const uniqueName = (label: string) =>
  `${label}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * The one contract every BreakerStore adapter passes (docs/breaker-store.md). Time is passed explicitly,
 * so bucket boundaries are crossed without waiting.
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

    it('trips once when the window exceeds the threshold, with a trip record', async () => {
      const store = await fresh();
      expect((await store.record(failures(5), T0)).tripped).toBe(false); // 5 is not more than 5
      const trip = await store.record(failures(1, 'x'), T0 + 100);
      expect(trip).toMatchObject({ failuresInWindow: 6, state: 'OPEN', tripped: true });
      expect(trip.tripId).toMatch(/^[a-z0-9-]+$/);
      const again = await store.record(failures(3), T0 + 200);
      expect(again).toEqual({ failuresInWindow: 9, state: 'OPEN', tripped: false, tripId: trip.tripId });
      expect(await store.getState()).toEqual({ state: 'OPEN', tripId: trip.tripId, since: T0 + 100 });
      const [record] = readableTrips(await store.history(10));
      expect(record).toMatchObject({
        tripId: trip.tripId,
        cause: 'threshold',
        openedAt: T0 + 100,
        failuresInWindow: 6,
      });
      expect(record?.sample).toEqual([{ eventKey: 'x0', kind: 'transient', message: 'boom 0' }]);
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
      expect(isInvalidTransitionError(await attempt('CLOSED', 'OPEN'))).toBe(true);
      expect(isInvalidTransitionError(await attempt('HALF_OPEN', 'OPEN'))).toBe(true);
      expect(isInvalidTransitionError(await attempt('CLOSED', 'HALF_OPEN'))).toBe(true);
      expect(await store.getState()).toMatchObject({ state: 'CLOSED' });
      await store.close();
    });

    it('re-trips in probation (HALF_OPEN) above the lower threshold, as a new episode', async () => {
      const store = await fresh();
      const first = await store.record(failures(6), T0);
      expect(await store.transition('OPEN', 'HALF_OPEN', first.tripId, T0 + 1_000)).toBe(true);
      await store.resetWindow();
      expect(await store.record(failures(2), T0 + 2_000)).toMatchObject({
        failuresInWindow: 2,
        state: 'HALF_OPEN',
        tripped: false,
        tripId: first.tripId,
      });
      const second = await store.record(failures(1), T0 + 2_500);
      expect(second).toMatchObject({ failuresInWindow: 3, state: 'OPEN', tripped: true });
      expect(second.tripId).toBeDefined();
      expect(second.tripId).not.toBe(first.tripId);
      const history = readableTrips(await store.history(10));
      expect(history.map((t) => [t.tripId, t.cause])).toEqual([
        [second.tripId, 'probation'],
        [first.tripId, 'threshold'],
      ]);
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

    it('opens manually with a new trip id, once', async () => {
      const store = await fresh();
      await store.record(failures(2), T0);
      const tripId = await store.openManually('maintenance of the sink', T0 + 5);
      expect(tripId).toBeDefined();
      expect(await store.getState()).toEqual({ state: 'OPEN', tripId, since: T0 + 5 });
      expect(await store.openManually('again', T0 + 6)).toBeUndefined();
      const [record] = readableTrips(await store.history(1));
      expect(record).toMatchObject({
        tripId,
        cause: 'manual',
        reason: 'maintenance of the sink',
        openedAt: T0 + 5,
        failuresInWindow: 2,
        sample: [],
      });
      // Already OPEN: record does not trip a second time.
      expect((await store.record(failures(9), T0 + 7)).tripped).toBe(false);
      await store.close();
    });

    it('keeps a bounded trip history, newest first', async () => {
      const store = await fresh(); // historyLimit 3
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const id = await store.openManually(`drill ${i}`, T0 + i * 1_000);
        ids.push(id ?? '');
        expect(await store.transition('OPEN', 'CLOSED', id, T0 + i * 1_000 + 1)).toBe(true);
      }
      expect(new Set(ids).size).toBe(5);
      const history = readableTrips(await store.history(10));
      expect(history.map((t) => t.tripId)).toEqual([ids[4], ids[3], ids[2]]);
      expect(readableTrips(await store.history(2)).map((t) => t.tripId)).toEqual([ids[4], ids[3]]);
      await store.close();
    });

    it('updates a trip record with approval facts', async () => {
      const store = await fresh();
      const { tripId } = await store.record(failures(6), T0);
      await store.updateTrip(tripId ?? '', { approvedAt: T0 + 60_000, approvedBy: 'operator@example.com' });
      await store.updateTrip('no-such-trip', { closedAt: T0 });
      const [record] = readableTrips(await store.history(1));
      expect(record).toMatchObject({
        tripId,
        cause: 'threshold',
        approvedAt: T0 + 60_000,
        approvedBy: 'operator@example.com',
      });
      expect(record?.sample).toHaveLength(5);
      await store.close();
    });

    it('reads one trip by id, from its record, and nothing for an unknown id', async () => {
      const store = await fresh();
      const first = await store.openManually('drill', T0);
      await store.transition('OPEN', 'CLOSED', first, T0 + 1);
      const { tripId } = await store.record(failures(6), T0 + 2_000);
      expect(await store.trip(first ?? '')).toMatchObject({
        tripId: first,
        cause: 'manual',
        reason: 'drill',
      });
      expect(await store.trip(tripId ?? '')).toMatchObject({
        tripId,
        cause: 'threshold',
        failuresInWindow: 6,
      });
      expect(await store.trip('no-such-trip')).toBeUndefined();
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
  });
}
