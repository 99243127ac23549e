import {
  odata,
  RestError,
  type TableClient,
  type TableEntity,
  type TransactionAction,
} from '@azure/data-tables';

import type { SinkWriteResult } from './activitySink';
import { classifyFailure } from './classifyError';

/** A row replaced newest-wins: `version` compares as text, greater wins. */
export interface VersionedRow {
  readonly partitionKey: string;
  readonly rowKey: string;
  readonly version: string;
}

/** The one-row path: read, then a conditional write (ETag), with its own conflict rounds. */
export type WriteRow<R extends VersionedRow> = (row: R, signal: AbortSignal) => Promise<SinkWriteResult>;

interface Pending<R> {
  readonly row: R;
  readonly signal: AbortSignal;
  readonly resolve: (result: SinkWriteResult) => void;
  readonly reject: (error: unknown) => void;
}

/** What a Table transaction may hold: 100 operations, one partition, each row once. */
const MAX_TRANSACTION_ROWS = 100;

/**
 * Writes that share a Table partition and are asked for in the same turn of the event loop go as one
 * partition read and one transaction of conditional operations (ETag replace, or create). The
 * transaction is atomic: if another writer changed one of its rows in between (412/409), or it refuses
 * one row, nothing of it is applied and every row takes `writeRow` on its own, so the contract stays
 * that of one row at a time. An outage-like failure fails every write of the group alike.
 */
export function makePartitionTransactions<R extends VersionedRow>(table: TableClient, writeRow: WriteRow<R>) {
  const open = new Map<string, Pending<R>[]>();

  const flush = (group: readonly Pending<R>[]) => {
    const [only] = group;
    if (only && group.length === 1) writeRow(only.row, only.signal).then(only.resolve, only.reject);
    else void writeGroup(table, group, writeRow);
  };

  return (row: R, signal: AbortSignal): Promise<SinkWriteResult> =>
    new Promise((resolve, reject) => {
      const pending = { row, signal, resolve, reject };
      const group = open.get(row.partitionKey);
      if (group === undefined) {
        const fresh = [pending];
        open.set(row.partitionKey, fresh);
        setImmediate(() => {
          open.delete(row.partitionKey);
          flush(fresh);
        });
      } else if (group.length < MAX_TRANSACTION_ROWS && !group.some((p) => p.row.rowKey === row.rowKey)) {
        group.push(pending);
      } else {
        writeRow(row, signal).then(resolve, reject);
      }
    });
}

async function writeGroup<R extends VersionedRow>(
  table: TableClient,
  group: readonly Pending<R>[],
  writeRow: WriteRow<R>,
) {
  const signal = AbortSignal.any(group.map((p) => p.signal));
  let existing: Map<string, { version: string; etag: string }>;
  try {
    existing = await readRows(table, group, signal);
  } catch (error) {
    for (const p of group) p.reject(error);
    return;
  }
  const toWrite: Pending<R>[] = [];
  const actions: TransactionAction[] = [];
  for (const p of group) {
    const current = existing.get(p.row.rowKey);
    if (current && current.version >= p.row.version) p.resolve('stale');
    else {
      toWrite.push(p);
      const entity = asEntity(p.row);
      actions.push(current ? ['update', entity, 'Replace', { etag: current.etag }] : ['create', entity]);
    }
  }
  if (toWrite.length === 0) return;
  try {
    await table.submitTransaction(actions, { abortSignal: signal });
    for (const p of toWrite) p.resolve('applied');
  } catch (error) {
    if (!(error instanceof RestError) || classifyFailure(error).scope === 'outage') {
      for (const p of toWrite) p.reject(error);
      return;
    }
    // Another writer got in between, or one row was refused: each row on its own, as without grouping.
    for (const p of toWrite) writeRow(p.row, p.signal).then(p.resolve, p.reject);
  }
}

/** The current version and ETag of the group's rows: one query within the partition. */
async function readRows(table: TableClient, group: readonly Pending<VersionedRow>[], signal: AbortSignal) {
  const [first] = group;
  const rows = group.map((p) => odata`RowKey eq ${p.row.rowKey}`).join(' or ');
  const filter = `${odata`PartitionKey eq ${first?.row.partitionKey ?? ''}`} and (${rows})`;
  const found = new Map<string, { version: string; etag: string }>();
  const entities = table.listEntities<{ version?: string }>({
    queryOptions: { filter, select: ['RowKey', 'version'] },
    abortSignal: signal,
  });
  for await (const entity of entities) {
    if (entity.rowKey !== undefined)
      found.set(entity.rowKey, { version: entity.version ?? '', etag: entity.etag });
  }
  return found;
}

/** The row as the transaction types take it (every field kept). */
const asEntity = (row: VersionedRow): TableEntity => ({ ...row });
