import { RestError, type TableClient } from '@azure/data-tables';

import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';
import { withDependencySpan } from '../kernel/dependencySpan';
import type { ActivitySink, SinkWriteResult } from './activitySink';
import { SinkConflictError } from './errors';
import { makePartitionTransactions } from './partitionTransactions';
import { encodeTableKey } from './tableKeys';

/** One row per sensor: the latest reading, which a web page shows as the home's activity. */
export interface SensorActivityRow {
  partitionKey: string;
  rowKey: string;
  kind: string;
  state: string;
  occurredAt: string;
  batteryPercent?: number;
  /** Ordering key: occurredAt, then partition and sequence number (see `readingVersion`). */
  version: string;
  eventPartition: string;
  eventSequenceNumber: number;
}

const MAX_CONFLICT_ROUNDS = 5;

/**
 * Sink of the home activity view in Azure Table Storage (PartitionKey = homeId, RowKey = sensorId, both
 * through `encodeTableKey`, which leaves the ids the reading schema allows as they are).
 * Idempotent: a row is only replaced by a reading with a strictly greater version, through ETag
 * compare-and-set, so a repeated or older event never overwrites a newer one, even when two
 * instances race. Rows of one home written at once share reads and transactions (within the service's limits).
 */
export function makeHomeActivityTableSink(table: TableClient): ActivitySink {
  let tableReady: Promise<void> | undefined;
  const ensureTable = () =>
    (tableReady ??= table.createTable().catch((error: unknown) => {
      tableReady = undefined;
      throw error;
    }));
  // Each write and probe is a dependency span on the table (its reads, replaces and transactions inside).
  const span = <T>(operation: string, call: () => Promise<T>) =>
    withDependencySpan(`sink table ${operation}`, tableAttributes(table, operation), call);
  const writeGrouped = makePartitionTransactions(table, (row: SensorActivityRow, signal: AbortSignal) =>
    writeRow(table, row, signal),
  );

  return {
    async write(reading: SensorReading, event: ReceivedEvent, signal: AbortSignal): Promise<SinkWriteResult> {
      return span('write', async () => {
        await ensureTable();
        return writeGrouped(toRow(reading, event), signal);
      });
    },

    /** A point read of one known row: a 404 still means the table answered. */
    async probe(signal: AbortSignal): Promise<void> {
      await span('probe', () => getRow(table, PROBE_KEY, PROBE_KEY, signal));
    },

    // One row per sensor, replaced newest-wins: the row is the ordering key.
    orderingKey: (reading: SensorReading) => `${reading.homeId}/${reading.sensorId}`,
    readingVersion,
    // The rows of one home share a Table partition: written at once, they go as one transaction.
    writeGroup: (reading: SensorReading) => reading.homeId,
  };
}

/** One row on its own: read it, then replace it (ETag) or create it, again while other writers win. */
async function writeRow(
  table: TableClient,
  row: SensorActivityRow,
  signal: AbortSignal,
): Promise<SinkWriteResult> {
  for (let round = 0; round < MAX_CONFLICT_ROUNDS; round++) {
    const existing = await getRow(table, row.partitionKey, row.rowKey, signal);
    if (existing && existing.version >= row.version) return 'stale';
    try {
      if (existing) await table.updateEntity(row, 'Replace', { etag: existing.etag, abortSignal: signal });
      else await table.createEntity(row, { abortSignal: signal });
      return 'applied';
    } catch (error) {
      // 412: another writer replaced the row since we read it; 409: another writer created it.
      if (!(error instanceof RestError && (error.statusCode === 412 || error.statusCode === 409)))
        throw error;
    }
  }
  throw new SinkConflictError(
    `row ${row.partitionKey}/${row.rowKey} kept changing under ${MAX_CONFLICT_ROUNDS} writers`,
  );
}

/** A Table dependency: its account host and table name (Application Insights shows the type as given). */
function tableAttributes(table: TableClient, operation: string) {
  return {
    'db.system': 'azure_table',
    'db.operation.name': operation,
    'db.namespace': table.tableName,
    'server.address': new URL(table.url).hostname,
  };
}

/** Partition and row key of the row the health probe reads (it need not exist). */
const PROBE_KEY = 'probe';

async function getRow(table: TableClient, pk: string, rk: string, signal: AbortSignal) {
  try {
    return await table.getEntity<SensorActivityRow>(pk, rk, { abortSignal: signal });
  } catch (error) {
    if (error instanceof RestError && error.statusCode === 404) return undefined;
    throw error;
  }
}

function toRow(reading: SensorReading, event: ReceivedEvent): SensorActivityRow {
  return {
    partitionKey: encodeTableKey(reading.homeId),
    rowKey: encodeTableKey(reading.sensorId),
    kind: reading.kind,
    state: reading.state,
    occurredAt: reading.occurredAt,
    ...(reading.batteryPercent === undefined ? {} : { batteryPercent: reading.batteryPercent }),
    version: readingVersion(reading, event),
    eventPartition: event.partitionId ?? '',
    eventSequenceNumber: event.sequenceNumber ?? -1,
  };
}

/**
 * Totally ordered, comparable as text: the reading's own time first (what "newer" means to a person),
 * then partition and sequence number so two readings with the same timestamp still order and a
 * re-delivered event compares equal to itself.
 */
export function readingVersion(reading: SensorReading, event: ReceivedEvent): string {
  const time = new Date(reading.occurredAt).toISOString();
  const partition = (event.partitionId ?? '').padStart(4, '0');
  const sequence = String(event.sequenceNumber ?? 0).padStart(16, '0');
  return `${time}|${partition}|${sequence}`;
}
