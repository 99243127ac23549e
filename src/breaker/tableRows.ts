import { odata, type TableClient, type TableEntityResult, type TransactionAction } from '@azure/data-tables';

import type { BreakerState, BreakerStateName, TripEntry, TripRecord } from './breakerStore';
import { BreakerStoreCorruptError } from './errors';
import { parseStoredState } from './parseStoredState';
import { parseTripRecord } from './parseTripRecord';
import {
  BUCKET_ROWS_END,
  BUCKET_ROWS_START,
  bucketRow,
  bucketRowFrom,
  STATE_ROW,
  TRIP_ROWS_END,
  TRIP_ROWS_START,
  tripRow,
} from './tableRowKeys';

type StateEntity = TableEntityResult<{ state?: unknown; tripId?: unknown; since?: unknown; epoch?: unknown }>;
type TripEntity = TableEntityResult<{ record?: unknown; tripId?: unknown }>;

/** The state row as read: the state, its ETag for the next compare-and-set, and the reset epoch. */
export interface Snapshot {
  readonly state: BreakerState;
  readonly entity: StateEntity | undefined;
  /** Reset generation: bucket rows of another epoch are ignored (written before a reset). */
  readonly epoch: string;
}

export interface BucketRow {
  readonly bucket: number;
  readonly count: number;
  readonly epoch: string;
}

export interface TableRowsDeps {
  readonly table: TableClient;
  /** The partition of every row: the guarded function's name. */
  readonly pk: string;
  /** Upper bound of one service call, SDK retries included. */
  readonly timeoutMs: number;
}

/**
 * The Table breaker store's row I/O, one partition per breaker (keys in ./tableRowKeys.ts). No
 * decisions here: which write to make, and what a conflict means, is the store's (./tableBreakerStore.ts).
 */
export function makeTableRows({ table, pk, timeoutMs }: TableRowsDeps) {
  const opts = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });
  const tripRows = odata`PartitionKey eq ${pk} and RowKey ge ${TRIP_ROWS_START} and RowKey lt ${TRIP_ROWS_END}`;
  const bucketRows = odata`PartitionKey eq ${pk} and RowKey ge ${BUCKET_ROWS_START} and RowKey lt ${BUCKET_ROWS_END}`;

  let tableReady: Promise<void> | undefined;
  let cleanup: Promise<void> = Promise.resolve();

  const deleteIfUnchanged = async (rowKey: string, etag: string | undefined) => {
    try {
      await table.deleteEntity(pk, rowKey, { ...(etag === undefined ? {} : { etag }), ...opts() });
    } catch (error) {
      // Gone already, or rewritten since it was listed (a new epoch's count right after a reset): kept.
      if (statusOf(error) !== 404 && statusOf(error) !== 412) throw error;
    }
  };

  /** Deletes the rows `filter` lists, in the background; rows left behind are retried next time. */
  const deleteListed = (filter: string) => {
    cleanup = cleanup
      .then(async () => {
        for await (const e of table.listEntities({ queryOptions: { filter }, ...opts() }))
          await deleteIfUnchanged(e.rowKey ?? '', e.etag);
      })
      .catch(() => undefined);
  };

  return {
    ensureTable: () =>
      (tableReady ??= table.createTable(opts()).catch((error: unknown) => {
        tableReady = undefined;
        throw error;
      })),

    /** Replaces this writer's row of `bucket` with its running count (never conditional). */
    writeBucket: (bucket: number, shard: string, count: number, epoch: string) =>
      table.upsertEntity(
        { partitionKey: pk, rowKey: bucketRow(bucket, shard), bucket, count, epoch },
        'Replace',
        opts(),
      ),

    /** One partition query: the rows of buckets `from`..`to` of the current epoch, and the state row. */
    async readWindow(from: number, to: number): Promise<{ snapshot: Snapshot; live: BucketRow[] }> {
      const filter =
        odata`PartitionKey eq ${pk} and ((RowKey ge ${bucketRowFrom(from)} and RowKey lt ${bucketRowFrom(to + 1)})` +
        odata` or RowKey eq ${STATE_ROW})`;
      let stateEntity: StateEntity | undefined;
      const rows: BucketRow[] = [];
      for await (const e of table.listEntities({ queryOptions: { filter }, ...opts() })) {
        if (e.rowKey === STATE_ROW) stateEntity = e;
        else rows.push(parseBucketRow(e));
      }
      const snapshot = toSnapshot(stateEntity);
      return { snapshot, live: rows.filter((r) => r.epoch === snapshot.epoch) };
    },

    async readState(): Promise<Snapshot> {
      try {
        return toSnapshot(await table.getEntity<StateEntity>(pk, STATE_ROW, opts()));
      } catch (error) {
        if (statusOf(error) === 404) return toSnapshot(undefined);
        throw error;
      }
    },

    /** State compare-and-set on its ETag (+ a new trip row) in one transaction; false on 412/409. */
    async casState(
      snapshot: Snapshot,
      next: { state: BreakerStateName; tripId: string | undefined; since: number },
      trip: TripRecord | undefined,
    ): Promise<boolean> {
      const entity = {
        partitionKey: pk,
        rowKey: STATE_ROW,
        ...next,
        tripId: next.tripId ?? '',
        epoch: snapshot.epoch,
      };
      const actions: TransactionAction[] = [
        snapshot.entity === undefined
          ? ['create', entity]
          : ['update', entity, 'Replace', { etag: snapshot.entity.etag }],
      ];
      if (trip) {
        const row = tripRow(trip.openedAt, trip.tripId);
        actions.push([
          'create',
          { partitionKey: pk, rowKey: row, tripId: trip.tripId, record: JSON.stringify(trip) },
        ]);
      }
      try {
        await table.submitTransaction(actions, opts());
        return true;
      } catch (error) {
        if (isConflict(error)) return false;
        throw error;
      }
    },

    /** A new epoch on the state row hides every bucket row at once; the old rows are deleted after. */
    async newEpoch(epoch: string): Promise<void> {
      await table.upsertEntity({ partitionKey: pk, rowKey: STATE_ROW, epoch }, 'Merge', opts());
      deleteListed(bucketRows + odata` and epoch ne ${epoch}`);
    },

    /** Deletes bucket rows of buckets before `bucket`, in the background. */
    deleteBucketsBefore: (bucket: number) => {
      deleteListed(
        odata`PartitionKey eq ${pk} and RowKey ge ${BUCKET_ROWS_START} and RowKey lt ${bucketRowFrom(bucket)}`,
      );
    },

    /** Keeps the newest `limit` trip rows. */
    async trimTrips(limit: number): Promise<void> {
      let seen = 0;
      for await (const e of table.listEntities({
        queryOptions: { filter: tripRows, select: ['RowKey'] },
        ...opts(),
      }))
        if (++seen > limit) await deleteIfUnchanged(e.rowKey ?? '', undefined);
    },

    /** Newest first, at most `limit`; a record that does not parse is an UnreadableTrip. */
    async listTrips(limit: number): Promise<TripEntry[]> {
      const out: TripEntry[] = [];
      if (limit <= 0) return out;
      for await (const e of table.listEntities<{ record?: unknown; tripId?: unknown }>({
        queryOptions: { filter: tripRows },
        ...opts(),
      })) {
        out.push(parseTripRow(e));
        if (out.length >= limit) break;
      }
      return out;
    },

    /** The row of trip `tripId`, if any (with its ETag). */
    async findTrip(tripId: string): Promise<TripEntity | undefined> {
      let found: TripEntity | undefined;
      for await (const e of table.listEntities<{ record?: unknown; tripId?: unknown }>({
        queryOptions: { filter: tripRows + odata` and tripId eq ${tripId}` },
        ...opts(),
      }))
        found = e;
      return found;
    },

    /** Replaces a trip row's record on the ETag it was read with; false when it changed since (412). */
    async replaceTrip(row: TripEntity, tripId: string, record: object): Promise<boolean> {
      try {
        await table.updateEntity(
          { partitionKey: pk, rowKey: row.rowKey ?? '', tripId, record: JSON.stringify(record) },
          'Replace',
          { etag: row.etag, ...opts() },
        );
        return true;
      } catch (error) {
        if (statusOf(error) === 412) return false;
        throw error;
      }
    },

    /** Waits for background deletions. */
    settled: () => cleanup,
  };
}

export const parseTripRow = (e: { record?: unknown; tripId?: unknown }): TripEntry =>
  parseTripRecord(
    typeof e.record === 'string' ? e.record : '',
    typeof e.tripId === 'string' ? e.tripId : undefined,
  );

function toSnapshot(entity: StateEntity | undefined): Snapshot {
  const state = parseStoredState({ state: entity?.state, tripId: entity?.tripId, since: entity?.since });
  const epoch = typeof entity?.epoch === 'string' ? entity.epoch : '';
  // A state row created only by a reset (epoch, no state) is still "never written" for the CAS.
  return { state, entity, epoch };
}

function parseBucketRow(e: Record<string, unknown>): BucketRow {
  const { bucket, count, epoch } = e;
  if (typeof bucket !== 'number' || typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    throw new BreakerStoreCorruptError(
      `bucket row ${String(e.rowKey)} has no numeric bucket/count (${JSON.stringify(bucket)}, ${JSON.stringify(count)})`,
    );
  }
  return { bucket, count, epoch: typeof epoch === 'string' ? epoch : '' };
}

const isConflict = (error: unknown) => statusOf(error) === 412 || statusOf(error) === 409;

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}
