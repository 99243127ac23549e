import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';

import type { BreakerStore } from '../../src/breaker/breakerStore';
import { BreakerStoreCorruptError } from '../../src/breaker/errors';
import { breakerKeys, makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { breakerStoreContract } from './breakerStoreContract';
import { failures, T0, testPolicy, uniqueName } from './breakerStoreFixture';

const url = inject('redisUrl');
const admin = new Redis(url);
afterAll(() => admin.quit());

const open = (name: string, policy = testPolicy): Promise<BreakerStore> =>
  Promise.resolve(makeRedisBreakerStore({ redis: createBreakerRedis(url), name, policy }));

breakerStoreContract('Redis', open);

describe('Redis breaker store', () => {
  it('keeps every key of one breaker under one hash tag (one cluster slot)', async () => {
    const name = uniqueName('tag');
    const store = await open(name);
    await store.record(failures(6), T0);
    const keys = await admin.keys(`breakwater:{${name}}:*`);
    expect(keys.sort()).toEqual(Object.values(breakerKeys(name)).sort());
    const slots = await Promise.all(keys.map((k) => admin.cluster('KEYSLOT', k).catch(() => undefined)));
    // CLUSTER KEYSLOT answers on a non-cluster server too (Redis ≥ 7): one slot for all keys.
    expect(new Set(slots).size).toBe(1);
    await store.close();
  });

  it('holds one field per bucket of the window plus the running total, with an expiry of one window past the last write', async () => {
    const name = uniqueName('mem');
    const store = await open(name);
    for (let s = 0; s < 40; s++) await store.record(failures(3), T0 + s * 1_000);
    const { window } = breakerKeys(name);
    expect(await admin.hlen(window)).toBe(10 + 2);
    const ttl = await admin.pttl(window);
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(11_000);
    await store.close();
  });

  it('reports a non-numeric bucket as a typed error and leaves the hash untouched', async () => {
    const name = uniqueName('bad');
    const store = await open(name);
    await store.record(failures(1), T0);
    const { window } = breakerKeys(name);
    await admin.hset(window, String(T0 / 1000), 'lots');
    const error = await store.record(failures(1), T0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BreakerStoreCorruptError);
    expect(await admin.hget(window, String(T0 / 1000))).toBe('lots');
    expect(await store.windowBuckets(T0).catch((e: unknown) => e)).toBeInstanceOf(BreakerStoreCorruptError);
    await store.close();
  });

  it('checks the current bucket before expiring anything, so an error leaves the running total consistent', async () => {
    const name = uniqueName('bad');
    const store = await open(name);
    await store.record(failures(2), T0);
    const { window } = breakerKeys(name);
    await admin.hset(window, String(T0 / 1000 + 12), 'junk'); // the bucket a call at T0 + 12 s adds to
    expect(
      (await store.record(failures(1), T0 + 12_000).catch((e: unknown) => e)) instanceof
        BreakerStoreCorruptError,
    ).toBe(true);
    expect(await admin.hget(window, String(T0 / 1000))).toBe('000000000002'); // not expired half-way
    await admin.hdel(window, String(T0 / 1000 + 12));
    expect((await store.record(failures(1), T0 + 12_000)).failuresInWindow).toBe(1);
    await store.close();
  });

  it('counts a caller whose clock lags a whole window behind into the oldest live bucket', async () => {
    const store = await open(uniqueName('skew'));
    await store.record(failures(1), T0 + 60_000);
    expect((await store.record(failures(2), T0)).failuresInWindow).toBe(3);
    const window = await store.windowBuckets(T0 + 60_000);
    expect(window[0]).toEqual({ start: T0 + 51_000, failures: 2 });
    await store.close();
  });

  it('reports a corrupt running total as a typed error', async () => {
    const name = uniqueName('bad');
    const store = await open(name);
    await store.record(failures(1), T0);
    await admin.hset(breakerKeys(name).window, 't', 'NaN?');
    expect(await store.record(failures(1), T0).catch((e: unknown) => e)).toBeInstanceOf(
      BreakerStoreCorruptError,
    );
    await store.close();
  });

  it('reports an unknown state as a typed error, in record and getState alike', async () => {
    const name = uniqueName('bad');
    const store = await open(name);
    await admin.hset(breakerKeys(name).state, 'state', 'AJAR', 'tripId', 'x', 'since', '1');
    expect(await store.getState().catch((e: unknown) => e)).toBeInstanceOf(BreakerStoreCorruptError);
    expect(await store.record(failures(1), T0).catch((e: unknown) => e)).toBeInstanceOf(
      BreakerStoreCorruptError,
    );
    expect(await admin.exists(breakerKeys(name).window)).toBe(0);
    await store.close();
  });

  it('reads a malformed trip record as unreadable and the others as they are; updates still work', async () => {
    const name = uniqueName('bad');
    const store = await open(name);
    const tripId = await store.openManually('drill', T0);
    await admin.rpush(breakerKeys(name).trips, '{"not":"a trip"}');
    const history = await store.history(5);
    expect(history).toEqual([
      expect.objectContaining({ tripId, cause: 'manual' }),
      {
        tripId: undefined,
        unreadable: expect.stringMatching(/^stored trip record is unreadable/) as unknown,
      },
    ]);
    await store.updateTrip(tripId!, { approvedBy: 'Lee' });
    expect((await store.history(1))[0]).toMatchObject({ tripId, approvedBy: 'Lee' });
    await store.close();
  });
});
