import { randomBytes } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';

import { type FailureSample, sampleOf } from '../kernel/failureSample';
import { assertAllowedTransition } from './allowedTransitions';
import { type BreakerPolicy, bucketOf, bucketsInWindow, tripCause, windowOf } from './breakerPolicy';
import { type BreakerStore, readableTrips, type RecordResult, type TripRecord } from './breakerStore';
import { BreakerStoreCorruptError } from './errors';
import { newTripId as defaultNewTripId } from './newTripId';
import { parseTripForUpdate } from './parseTripRecord';
import { makeTableRows, parseTripRow, type Snapshot } from './tableRows';

export interface TableBreakerStoreDeps {
  /** Create it with bounded SDK retries: the gate treats a slow store as an outage. */
  readonly table: TableClient;
  /** The guarded function's name: the partition of every row. */
  readonly name: string;
  readonly policy: BreakerPolicy;
  readonly newTripId?: (now: number) => string;
  /** Upper bound of one service call, SDK retries included. */
  readonly operationTimeoutMs?: number;
  /** This instance's writer shard; random by default. */
  readonly shard?: string;
}

export interface TableStoreStats {
  /** 412s on writes made by `record` (bucket rows are never conditional, so only a trip race can 412). */
  readonly recordConflicts: number;
  /** All 412s seen, state transitions and trip updates included. */
  readonly conflicts: number;
}

export interface TableBreakerStore extends BreakerStore {
  stats(): TableStoreStats;
}

const MAX_CAS_ATTEMPTS = 10;

/**
 * The breaker store on Table Storage. Writers never contend: each store instance owns one row per bucket
 * (its shard) and replaces it with its running count, unconditionally; calls of one instance are
 * serialised so that count is exact. The window is summed by one partition query that also returns the
 * state entity; opening is one entity-group transaction (state CAS on its ETag + the trip record), and a
 * 412 means another writer moved first: re-read and decide again. Expired bucket rows are deleted about
 * once per window per instance, in the background. Row I/O is in ./tableRows.ts.
 */
export function makeTableBreakerStore(deps: TableBreakerStoreDeps): TableBreakerStore {
  const { policy } = deps;
  const rows = makeTableRows({
    table: deps.table,
    pk: deps.name,
    timeoutMs: deps.operationTimeoutMs ?? 2000,
  });
  const shard = deps.shard ?? randomBytes(4).toString('hex');
  const buckets = bucketsInWindow(policy);
  const newTripId = deps.newTripId ?? defaultNewTripId;
  const stats = { recordConflicts: 0, conflicts: 0 };

  // This instance's running count per bucket, valid for `ownEpoch` only.
  const own = new Map<number, number>();
  let ownEpoch = '';
  let lastCleanup = Number.NEGATIVE_INFINITY;

  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      await rows.ensureTable();
      return work();
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const readWindow = async (now: number) => {
    const current = bucketOf(policy, now);
    const { snapshot, live } = await rows.readWindow(current - buckets + 1, current);
    return { snapshot, live, current, sum: live.reduce((total, r) => total + r.count, 0) };
  };

  /** Moves the state on its ETag, with a trip record when opening; counts a lost race. */
  const cas = async (snapshot: Snapshot, next: Parameters<typeof rows.casState>[1], trip?: TripRecord) => {
    const won = await rows.casState(snapshot, next, trip);
    if (!won) stats.conflicts++;
    if (won && trip) await rows.trimTrips(policy.historyLimit).catch(() => undefined);
    return won;
  };

  /** Opens with a new trip when `sum` exceeds the current state's limit; re-decides after a conflict. */
  const decide = async (
    first: Snapshot,
    sum: number,
    now: number,
    failures: readonly FailureSample[],
  ): Promise<RecordResult> => {
    let snapshot = first;
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const { state, tripId } = snapshot.state;
      const cause = tripCause(policy, state, sum);
      if (cause === undefined) return { failuresInWindow: sum, state, tripped: false, tripId };
      const id = newTripId(now);
      const trip: TripRecord = {
        tripId: id,
        cause,
        openedAt: now,
        failuresInWindow: sum,
        sample: sampleOf(failures),
      };
      if (await cas(snapshot, { state: 'OPEN', tripId: id, since: now }, trip))
        return { failuresInWindow: sum, state: 'OPEN', tripped: true, tripId: id };
      stats.recordConflicts++;
      snapshot = await rows.readState();
    }
    throw new BreakerStoreCorruptError(
      `breaker state kept changing: gave up after ${MAX_CAS_ATTEMPTS} attempts`,
    );
  };

  /** Adds this instance's failures to its own bucket row (a running total, so a failed write is retried). */
  const addOwn = async (bucket: number, n: number) => {
    own.set(bucket, (own.get(bucket) ?? 0) + n);
    await rows.writeBucket(bucket, shard, own.get(bucket) ?? n, ownEpoch);
  };

  return {
    record: (failures, now) =>
      serial(async () => {
        const bucket = bucketOf(policy, now);
        const n = failures.length;
        // Counted before the write: if the upsert fails, the next one carries these failures too (the
        // row holds a running total), so they are counted late rather than lost or doubled.
        if (n > 0) await addOwn(bucket, n);
        let window = await readWindow(now);
        if (window.snapshot.epoch !== ownEpoch) {
          // The window was reset since this instance last wrote: its earlier counts are gone.
          ownEpoch = window.snapshot.epoch;
          own.clear();
          if (n > 0) {
            await addOwn(bucket, n);
            window = await readWindow(now);
          }
        }
        for (const b of own.keys()) if (b < window.current) own.delete(b);
        if (now - lastCleanup >= policy.windowMs) {
          lastCleanup = now;
          rows.deleteBucketsBefore(window.current - buckets + 1);
        }
        return decide(window.snapshot, window.sum, now, failures);
      }),

    getState: () => serial(async () => (await rows.readState()).state),

    transition: (from, to, tripId, now) => {
      assertAllowedTransition(from, to);
      return serial(async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const snapshot = await rows.readState();
          if (snapshot.state.state !== from || snapshot.state.tripId !== tripId) return false;
          if (await cas(snapshot, { state: to, tripId, since: now })) return true;
        }
        return false;
      });
    },

    openManually: (reason, now) =>
      serial(async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const { snapshot, sum } = await readWindow(now);
          if (snapshot.state.state === 'OPEN') return undefined;
          const id = newTripId(now);
          const trip: TripRecord = {
            tripId: id,
            cause: 'manual',
            openedAt: now,
            failuresInWindow: sum,
            sample: [],
            reason,
          };
          if (await cas(snapshot, { state: 'OPEN', tripId: id, since: now }, trip)) return id;
        }
        return undefined;
      }),

    // Writers holding old counts notice the new epoch on their next record.
    resetWindow: () => serial(() => rows.newEpoch(randomBytes(6).toString('hex'))),

    windowBuckets: (now) =>
      serial(async () => {
        const { live } = await readWindow(now);
        const counts = new Map<number, number>();
        for (const r of live) counts.set(r.bucket, (counts.get(r.bucket) ?? 0) + r.count);
        return windowOf(policy, now, counts);
      }),

    history: (limit) => serial(() => rows.listTrips(limit)),

    trip: (tripId) =>
      serial(async () => {
        const row = await rows.findTrip(tripId);
        return row === undefined ? undefined : readableTrips([parseTripRow(row)])[0];
      }),

    updateTrip: (tripId, patch) =>
      serial(async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const row = await rows.findTrip(tripId);
          if (row === undefined) return;
          const record = typeof row.record === 'string' ? row.record : '';
          if (await rows.replaceTrip(row, tripId, { ...parseTripForUpdate(record), ...patch, tripId }))
            return;
          stats.conflicts++;
        }
        throw new BreakerStoreCorruptError(`trip ${tripId} kept changing while it was updated`);
      }),

    close: async () => {
      await queue;
      await rows.settled();
    },

    stats: () => ({ ...stats }),
  };
}
