import { randomBytes } from 'node:crypto';

import { odata, type TableClient, type TableEntityResult, type TransactionAction } from '@azure/data-tables';

import type { FailureSample } from '../kernel/failureSample';
import { assertAllowedTransition } from './allowedTransitions';
import { BreakerStoreCorruptError } from './breakerErrors';
import { type BreakerPolicy, bucketOf, bucketsInWindow, windowOf } from './breakerPolicy';
import type {
  BreakerState,
  BreakerStateName,
  BreakerStore,
  RecordResult,
  TripCause,
  TripEntry,
  TripRecord,
} from './breakerStore';
import { sampleOf } from '../kernel/failureSample';
import { newTripId as defaultNewTripId } from './newTripId';
import { parseStoredState } from './parseStoredState';
import { parseTripForUpdate, parseTripRecord } from './parseTripRecord';
import {
  BUCKET_ROWS_START,
  bucketRow,
  bucketRowFrom,
  STATE_ROW,
  TRIP_ROWS_END,
  TRIP_ROWS_START,
  tripRow,
} from './tableRowKeys';

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

type StateEntity = TableEntityResult<{ state?: unknown; tripId?: unknown; since?: unknown; epoch?: unknown }>;
interface Snapshot {
  readonly state: BreakerState;
  readonly entity: StateEntity | undefined;
  /** Reset generation: bucket rows of another epoch are ignored (written before a reset). */
  readonly epoch: string;
}

const MAX_CAS_ATTEMPTS = 10;

/**
 * The breaker store on Table Storage. Writers never contend: each store instance owns one row per bucket
 * (its shard) and replaces it with its running count, unconditionally; calls of one instance are
 * serialised so that count is exact. The window is summed by one partition query that also returns the
 * state entity; opening is one entity-group transaction (state CAS on its ETag + the trip record), and a
 * 412 means another writer moved first: re-read and decide again. Expired bucket rows are deleted about
 * once per window per instance, in the background.
 */
export function makeTableBreakerStore(deps: TableBreakerStoreDeps): TableBreakerStore {
  const { table, policy } = deps;
  const pk = deps.name;
  const shard = deps.shard ?? randomBytes(4).toString('hex');
  const buckets = bucketsInWindow(policy);
  const newTripId = deps.newTripId ?? defaultNewTripId;
  const timeoutMs = deps.operationTimeoutMs ?? 2000;
  const opts = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });
  const stats = { recordConflicts: 0, conflicts: 0 };

  let tableReady: Promise<void> | undefined;
  const ensureTable = () =>
    (tableReady ??= table.createTable(opts()).catch((error: unknown) => {
      tableReady = undefined;
      throw error;
    }));

  // This instance's running count per bucket, valid for `ownEpoch` only.
  const own = new Map<number, number>();
  let ownEpoch = '';
  let lastCleanup = Number.NEGATIVE_INFINITY;
  let cleanup: Promise<void> = Promise.resolve();

  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      await ensureTable();
      return work();
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const writeOwnRow = (bucket: number, count: number) =>
    table.upsertEntity(
      { partitionKey: pk, rowKey: bucketRow(bucket, shard), bucket, count, epoch: ownEpoch },
      'Replace',
      opts(),
    );

  /** One partition query: the live bucket rows and the state entity. */
  const readWindow = async (now: number) => {
    const current = bucketOf(policy, now);
    const filter =
      odata`PartitionKey eq ${pk} and ((RowKey ge ${bucketRowFrom(current - buckets + 1)} and RowKey lt ${bucketRowFrom(current + 1)})` +
      odata` or RowKey eq ${STATE_ROW})`;
    let stateEntity: StateEntity | undefined;
    const rows: { bucket: number; count: number; epoch: string }[] = [];
    for await (const e of table.listEntities({
      queryOptions: { filter },
      ...opts(),
    })) {
      if (e.rowKey === STATE_ROW) stateEntity = e;
      else rows.push(parseBucketRow(e));
    }
    const snapshot = toSnapshot(stateEntity);
    const live = rows.filter((r) => r.epoch === snapshot.epoch);
    return { snapshot, live, current };
  };

  const readState = async (): Promise<Snapshot> => {
    try {
      return toSnapshot(await table.getEntity<StateEntity>(pk, STATE_ROW, opts()));
    } catch (error) {
      if (statusOf(error) === 404) return toSnapshot(undefined);
      throw error;
    }
  };

  /** State CAS (+ optional trip row) in one transaction; false on 412/409 (someone else moved first). */
  const casState = async (
    snapshot: Snapshot,
    next: { state: BreakerStateName; tripId: string | undefined; since: number },
    trip: TripRecord | undefined,
    onConflict: () => void,
  ): Promise<boolean> => {
    const entity = {
      partitionKey: pk,
      rowKey: STATE_ROW,
      state: next.state,
      tripId: next.tripId ?? '',
      since: next.since,
      epoch: snapshot.epoch,
    };
    const actions: TransactionAction[] = [
      snapshot.entity === undefined
        ? ['create', entity]
        : ['update', entity, 'Replace', { etag: snapshot.entity.etag }],
    ];
    if (trip) {
      actions.push([
        'create',
        {
          partitionKey: pk,
          rowKey: tripRow(trip.openedAt, trip.tripId),
          tripId: trip.tripId,
          record: JSON.stringify(trip),
        },
      ]);
    }
    try {
      await table.submitTransaction(actions, opts());
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 412 || status === 409) {
        stats.conflicts++;
        onConflict();
        return false;
      }
      throw error;
    }
  };

  const trimHistory = async () => {
    const filter = odata`PartitionKey eq ${pk} and RowKey ge ${TRIP_ROWS_START} and RowKey lt ${TRIP_ROWS_END}`;
    let seen = 0;
    for await (const e of table.listEntities({ queryOptions: { filter, select: ['RowKey'] }, ...opts() })) {
      if (++seen > policy.historyLimit) await deleteIgnoringMissing(e.rowKey ?? '');
    }
  };

  const deleteIgnoringMissing = async (rowKey: string) => {
    try {
      await table.deleteEntity(pk, rowKey, opts());
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  };

  /** Deletes bucket rows older than the window of `current` (or, after a reset, of another epoch). */
  const cleanExpired = (filter: string) => {
    cleanup = cleanup
      .then(async () => {
        for await (const e of table.listEntities({ queryOptions: { filter }, ...opts() })) {
          // Conditional on the ETag seen: a writer that rewrote the row since (a new epoch's count in the
          // same bucket right after a reset) keeps it (412).
          try {
            await table.deleteEntity(pk, e.rowKey ?? '', { etag: e.etag, ...opts() });
          } catch (error) {
            if (statusOf(error) !== 404 && statusOf(error) !== 412) throw error;
          }
        }
      })
      // Best effort: rows left behind are outside every window and are retried next time.
      .catch(() => undefined);
  };
  const bucketRowsBefore = (bucket: number) =>
    odata`PartitionKey eq ${pk} and RowKey ge ${BUCKET_ROWS_START} and RowKey lt ${bucketRowFrom(bucket)}`;

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
      const limit =
        state === 'CLOSED' ? policy.threshold : state === 'HALF_OPEN' ? policy.probationThreshold : undefined;
      if (limit === undefined || sum <= limit)
        return { failuresInWindow: sum, state, tripped: false, tripId };
      const cause: TripCause = state === 'CLOSED' ? 'threshold' : 'probation';
      const id = newTripId(now);
      const trip: TripRecord = {
        tripId: id,
        cause,
        openedAt: now,
        failuresInWindow: sum,
        sample: sampleOf(failures),
      };
      const won = await casState(snapshot, { state: 'OPEN', tripId: id, since: now }, trip, () => {
        stats.recordConflicts++;
      });
      if (won) {
        await trimHistory().catch(() => undefined);
        return { failuresInWindow: sum, state: 'OPEN', tripped: true, tripId: id };
      }
      snapshot = await readState();
    }
    throw new BreakerStoreCorruptError(
      `breaker state kept changing: gave up after ${MAX_CAS_ATTEMPTS} attempts`,
    );
  };

  const store: TableBreakerStore = {
    record: (failures, now) =>
      serial(async () => {
        const bucket = bucketOf(policy, now);
        const n = failures.length;
        if (n > 0) {
          // Counted before the write: if the upsert fails, the next one carries these failures too
          // (the row holds a running total), so they are counted late rather than lost or doubled.
          own.set(bucket, (own.get(bucket) ?? 0) + n);
          await writeOwnRow(bucket, own.get(bucket) ?? n);
        }
        let { snapshot, live, current } = await readWindow(now);
        if (snapshot.epoch !== ownEpoch) {
          // The window was reset since this instance last wrote: its earlier counts are gone.
          ownEpoch = snapshot.epoch;
          own.clear();
          if (n > 0) {
            own.set(bucket, n);
            await writeOwnRow(bucket, n);
            ({ snapshot, live, current } = await readWindow(now));
          }
        }
        for (const b of own.keys()) if (b < current) own.delete(b);
        if (now - lastCleanup >= policy.windowMs) {
          lastCleanup = now;
          cleanExpired(bucketRowsBefore(current - buckets + 1));
        }
        const sum = live.reduce((total, r) => total + r.count, 0);
        return decide(snapshot, sum, now, failures);
      }),

    getState: () => serial(async () => (await readState()).state),

    transition: (from, to, tripId, now) => {
      assertAllowedTransition(from, to);
      return serial(async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const snapshot = await readState();
          if (snapshot.state.state !== from || snapshot.state.tripId !== tripId) return false;
          if (await casState(snapshot, { state: to, tripId, since: now }, undefined, () => undefined))
            return true;
        }
        return false;
      });
    },

    openManually: (reason, now) =>
      serial(async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const { snapshot, live } = await readWindow(now);
          if (snapshot.state.state === 'OPEN') return undefined;
          const id = newTripId(now);
          const sum = live.reduce((total, r) => total + r.count, 0);
          const trip: TripRecord = {
            tripId: id,
            cause: 'manual',
            openedAt: now,
            failuresInWindow: sum,
            sample: [],
            reason,
          };
          if (await casState(snapshot, { state: 'OPEN', tripId: id, since: now }, trip, () => undefined)) {
            await trimHistory().catch(() => undefined);
            return id;
          }
        }
        return undefined;
      }),

    resetWindow: () =>
      serial(async () => {
        // A new epoch hides every existing bucket row at once (writers holding old counts notice it on
        // their next record); the old rows are then deleted, best effort.
        const epoch = randomBytes(6).toString('hex');
        await table.upsertEntity({ partitionKey: pk, rowKey: STATE_ROW, epoch }, 'Merge', opts());
        cleanExpired(
          odata`PartitionKey eq ${pk} and RowKey ge ${BUCKET_ROWS_START} and RowKey lt ${'b.'} and epoch ne ${epoch}`,
        );
      }),

    windowBuckets: (now) =>
      serial(async () => {
        const { live } = await readWindow(now);
        const counts = new Map<number, number>();
        for (const r of live) counts.set(r.bucket, (counts.get(r.bucket) ?? 0) + r.count);
        return windowOf(policy, now, counts);
      }),

    history: (limit) =>
      serial(async () => {
        const out: TripEntry[] = [];
        if (limit <= 0) return out;
        const filter = odata`PartitionKey eq ${pk} and RowKey ge ${TRIP_ROWS_START} and RowKey lt ${TRIP_ROWS_END}`;
        for await (const e of table.listEntities<{ record?: unknown; tripId?: unknown }>({
          queryOptions: { filter },
          ...opts(),
        })) {
          const knownTripId = typeof e.tripId === 'string' ? e.tripId : undefined;
          out.push(parseTripRecord(typeof e.record === 'string' ? e.record : '', knownTripId));
          if (out.length >= limit) break;
        }
        return out;
      }),

    updateTrip: (tripId, patch) =>
      serial(async () => {
        const filter = odata`PartitionKey eq ${pk} and RowKey ge ${TRIP_ROWS_START} and RowKey lt ${TRIP_ROWS_END} and tripId eq ${tripId}`;
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          let found: TableEntityResult<{ record?: unknown }> | undefined;
          for await (const e of table.listEntities<{ record?: unknown }>({
            queryOptions: { filter },
            ...opts(),
          }))
            found = e;
          if (found === undefined) return;
          const merged = {
            ...parseTripForUpdate(typeof found.record === 'string' ? found.record : ''),
            ...patch,
            tripId,
          };
          try {
            await table.updateEntity(
              { partitionKey: pk, rowKey: found.rowKey ?? '', tripId, record: JSON.stringify(merged) },
              'Replace',
              { etag: found.etag, ...opts() },
            );
            return;
          } catch (error) {
            if (statusOf(error) !== 412) throw error;
            stats.conflicts++;
          }
        }
        throw new BreakerStoreCorruptError(`trip ${tripId} kept changing while it was updated`);
      }),

    close: async () => {
      await queue;
      await cleanup;
    },

    stats: () => ({ ...stats }),
  };
  return store;
}

function toSnapshot(entity: StateEntity | undefined): Snapshot {
  const state = parseStoredState({ state: entity?.state, tripId: entity?.tripId, since: entity?.since });
  const epoch = typeof entity?.epoch === 'string' ? entity.epoch : '';
  // A state row created only by a reset (epoch, no state) is still "never written" for the CAS.
  return { state, entity, epoch };
}

function parseBucketRow(e: Record<string, unknown>): { bucket: number; count: number; epoch: string } {
  const { bucket, count, epoch } = e;
  if (typeof bucket !== 'number' || typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    throw new BreakerStoreCorruptError(
      `bucket row ${String(e.rowKey)} has no numeric bucket/count (${JSON.stringify(bucket)}, ${JSON.stringify(count)})`,
    );
  }
  return { bucket, count, epoch: typeof epoch === 'string' ? epoch : '' };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}
