import { describe, expect, it } from 'vitest';

import { isCircuitOpenError } from '../../src/processing/errors';
import { failures, T0 } from '../breaker/breakerStoreFixture';
import { batch, breakerStores, harness } from './sharedBreakerFixture';

const { redisStore } = breakerStores();

describe('processing with the shared breaker (real gate, real Redis store)', () => {
  it('OPEN: throws CircuitOpenError before touching the sink or the dead letters', async () => {
    const store = redisStore();
    const tripId = await store.openManually('drill', T0);
    const h = harness(store);
    const error = await h.process(batch(5, [1]), h.context).catch((e: unknown) => e);
    expect(isCircuitOpenError(error)).toBe(true);
    expect(error).toMatchObject({ tripId });
    expect(h.sink.written).toEqual([]);
    expect(h.deadLetters.letters).toEqual([]);
  });

  it('failures crossing the threshold mid-batch: trips once, holds the batch, dead-letters nothing', async () => {
    const store = redisStore();
    await store.record(failures(4), T0); // another instance's failures: 4 of 5 allowed
    const h = harness(store);
    const error = await h.process(batch(6, [1, 3]), h.context).catch((e: unknown) => e);
    expect(isCircuitOpenError(error)).toBe(true);
    expect(h.deadLetters.letters).toEqual([]);
    expect(h.trips).toHaveLength(1);
    expect(await store.getState()).toMatchObject({ state: 'OPEN', tripId: h.trips[0] });
    // The re-run of the held batch stops at the gate: nothing written, nothing dead-lettered.
    const written = h.sink.written.length;
    expect(isCircuitOpenError(await h.process(batch(6, [1, 3]), h.context).catch((e: unknown) => e))).toBe(
      true,
    );
    expect(h.sink.written).toHaveLength(written);
    expect(h.trips).toHaveLength(1);
  });

  it('below the threshold: dead-letters the events failing alone and returns', async () => {
    const store = redisStore();
    const h = harness(store);
    const result = await h.process(batch(6, [2, 4]), h.context);
    expect(result).toMatchObject({ processed: 4, deadLettered: 2 });
    expect(h.deadLetters.letters.map((l) => [l.event.sequenceNumber, l.reason])).toEqual([
      [2, 'isolated'],
      [4, 'isolated'],
    ]);
    expect(h.sink.written).toEqual(['s0', 's1', 's3', 's5']);
    expect((await store.record([], T0)).failuresInWindow).toBe(2);
    expect(h.trips).toEqual([]);
  });

  it('HALF_OPEN (probation) lets batches through and re-trips above the probation threshold', async () => {
    const store = redisStore();
    const first = await store.openManually('drill', T0);
    await store.transition('OPEN', 'HALF_OPEN', first, T0);
    await store.resetWindow();
    const h = harness(store);
    expect(await h.process(batch(4, [1, 2]), h.context)).toMatchObject({ processed: 2, deadLettered: 2 });
    const error = await h.process(batch(3, [0], 10), h.context).catch((e: unknown) => e); // 3 > 2
    expect(isCircuitOpenError(error)).toBe(true);
    expect(h.trips).toHaveLength(1);
    expect(h.trips[0]).not.toBe(first);
    expect(h.deadLetters.letters).toHaveLength(2);
  });

  it('the happy path costs no store round trip beyond the cached state read', async () => {
    const store = redisStore();
    let records = 0;
    const h = harness({
      ...store,
      record: (f, now) => {
        records++;
        return store.record(f, now);
      },
    });
    for (let i = 0; i < 5; i++) await h.process(batch(10, [], i * 10), h.context);
    expect(records).toBe(0);
    expect(h.sink.written).toHaveLength(50);
  });
});
