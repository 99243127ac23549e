import { TableClient } from '@azure/data-tables';
import { describe, expect, inject, it } from 'vitest';

import { BreakerStoreCorruptError } from '../../src/breaker/errors';
import { makeTableBreakerStore, type TableBreakerStore } from '../../src/breaker/tableBreakerStore';
import { tripRow } from '../../src/breaker/tableRowKeys';
import { breakerStoreContract } from './breakerStoreContract';
import { failures, T0, testPolicy, uniqueName } from './breakerStoreFixture';

const connectionString = inject('storageConnectionString');
const tableName = `Breaker${Math.random().toString(36).slice(2, 8)}`;
const client = () =>
  TableClient.fromConnectionString(connectionString, tableName, {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 1 },
  });

const open = (name: string, policy = testPolicy): Promise<TableBreakerStore> =>
  Promise.resolve(makeTableBreakerStore({ table: client(), name, policy }));

breakerStoreContract('Table', open);

async function rows(name: string) {
  const out: Record<string, unknown>[] = [];
  for await (const e of client().listEntities({ queryOptions: { filter: `PartitionKey eq '${name}'` } }))
    out.push(e);
  return out;
}

describe('Table breaker store', () => {
  it('writes one row per (bucket, writer) and never conflicts on record', async () => {
    const name = uniqueName('rows');
    // Below the threshold: only bucket rows are written, and those are never conditional.
    const policy = { ...testPolicy, threshold: 100 };
    const [a, b] = [await open(name, policy), await open(name, policy)];
    await Promise.all([a.record(failures(2), T0), b.record(failures(3), T0), a.record(failures(1), T0 + 10)]);
    await b.record(failures(1), T0 + 1_000);
    const buckets = (await rows(name)).filter((r) => String(r.rowKey).startsWith('b-'));
    expect(buckets.map((r) => [r.bucket, r.count]).sort()).toEqual(
      [
        [T0 / 1000, 3],
        [T0 / 1000, 3],
        [T0 / 1000 + 1, 1],
      ].sort(),
    );
    expect(a.stats().conflicts + b.stats().conflicts).toBe(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('412 on the trip: the loser re-reads, sees OPEN and does not trip again', async () => {
    const name = uniqueName('race');
    const a = await open(name);
    let interleave: (() => Promise<unknown>) | undefined;
    const raw = client();
    // B's trip transaction waits until A has tripped: B's ETag is then stale and the service answers 412.
    const slowed = new Proxy(raw, {
      get(target, property, receiver) {
        if (property === 'submitTransaction') {
          return async (...args: Parameters<TableClient['submitTransaction']>) => {
            const before = interleave;
            interleave = undefined;
            await before?.();
            return target.submitTransaction(...args);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const b = makeTableBreakerStore({ table: slowed, name, policy: testPolicy });
    await a.record(failures(5), T0);
    let aResult: Awaited<ReturnType<typeof a.record>> | undefined;
    interleave = async () => {
      aResult = await a.record(failures(1), T0 + 1);
    };
    const bResult = await b.record(failures(1), T0 + 2);
    expect(aResult).toMatchObject({ tripped: true, state: 'OPEN' });
    expect(bResult).toEqual({ failuresInWindow: 6, state: 'OPEN', tripped: false, tripId: aResult?.tripId });
    expect(b.stats()).toEqual({ recordConflicts: 1, conflicts: 1 });
    expect(await a.history(10)).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('deletes bucket rows that left the window', async () => {
    const name = uniqueName('clean');
    const store = await open(name);
    for (let s = 0; s < 5; s++) await store.record(failures(1), T0 + s * 1_000);
    await store.record(failures(1), T0 + 30_000); // a window later: cleanup runs
    await store.close(); // waits for the background cleanup
    const buckets = (await rows(name)).filter((r) => String(r.rowKey).startsWith('b-'));
    expect(buckets.map((r) => r.bucket)).toEqual([T0 / 1000 + 30]);
  });

  it('counts a writer that recorded before a reset only from the reset on', async () => {
    const name = uniqueName('epoch');
    const [a, b] = [await open(name), await open(name)];
    await a.record(failures(4), T0);
    await b.resetWindow();
    expect((await a.record(failures(1), T0 + 100)).failuresInWindow).toBe(1);
    expect((await b.record(failures(1), T0 + 200)).failuresInWindow).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });

  it('reports an unknown state as a typed error', async () => {
    const name = uniqueName('bad');
    await client().createTable();
    await client().upsertEntity({
      partitionKey: name,
      rowKey: 'state',
      state: 'AJAR',
      tripId: 'x',
      since: 1,
    });
    const store = await open(name);
    expect(await store.getState().catch((e: unknown) => e)).toBeInstanceOf(BreakerStoreCorruptError);
    expect(await store.record(failures(1), T0).catch((e: unknown) => e)).toBeInstanceOf(
      BreakerStoreCorruptError,
    );
    await store.close();
  });

  it('reads a trip row whose record does not parse as unreadable, naming its trip', async () => {
    const name = uniqueName('badtrip');
    const store = await open(name);
    const tripId = await store.openManually('drill', T0);
    await client().createEntity({
      partitionKey: name,
      rowKey: tripRow(T0 - 60_000, 'old'),
      tripId: 'old',
      record: '{"tripId":"old","cause":"threshold","openedAt":"yesterday","failuresInWindow":1,"sample":[]}',
    });
    expect(await store.history(5)).toEqual([
      expect.objectContaining({ tripId, cause: 'manual' }),
      { tripId: 'old', unreadable: expect.stringMatching(/openedAt/) as unknown },
    ]);
    await store.close();
  });

  it('reports a bucket row with a non-numeric count as a typed error', async () => {
    const name = uniqueName('bad');
    const store = await open(name);
    await store.record(failures(1), T0);
    await client().upsertEntity({
      partitionKey: name,
      rowKey: `b-${String(T0 / 1000).padStart(16, '0')}-zz`,
      bucket: T0 / 1000,
      count: 'lots',
    });
    expect(await store.record(failures(1), T0).catch((e: unknown) => e)).toBeInstanceOf(
      BreakerStoreCorruptError,
    );
    await store.close();
  });
});
