import { expect, it } from 'vitest';

import { readableTrips } from '../../src/breaker/breakerStore';
import { failures, type FreshStore, T0 } from './breakerStoreFixture';

/**
 * The contract's trip checks (docs/how-it-works.md#breaker-store): trip records, probation re-trips, manual
 * opens and the bounded trip history. Registered inside the contract's describe by `breakerStoreContract`.
 */
export function breakerStoreTripContract(fresh: FreshStore) {
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
}
