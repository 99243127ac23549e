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

/**
 * The Table service's limits on what the grouped path sends (sim/README.md cites them): one
 * transaction holds at most 100 operations and 4 MiB (each row once, one partition); one `$filter` at
 * most 15 comparisons, so a pre-read asks for at most 14 rows next to its PartitionKey comparison.
 */
const MAX_TRANSACTION_ROWS = 100;
/** Below 4 MiB, with room for the multipart framing and headers of up to 100 operations. */
const MAX_TRANSACTION_BYTES = 4 * 1024 * 1024 - 256 * 1024;
const MAX_FILTER_COMPARISONS = 15;
const ROWS_PER_READ = MAX_FILTER_COMPARISONS - 1;

/**
 * Writes that share a Table partition and are asked for in the same turn of the event loop go as
 * partition reads and transactions of conditional operations (ETag replace, or create), each within the
 * service's limits above. A transaction is atomic: if another writer changed one of its rows in between (412/409), or it refuses
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
      } else if (!group.some((p) => p.row.rowKey === row.rowKey)) {
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
  const toWrite: { readonly pending: Pending<R>; readonly action: TransactionAction }[] = [];
  for (const p of group) {
    const current = existing.get(p.row.rowKey);
    if (current && current.version >= p.row.version) p.resolve('stale');
    else {
      const entity = asEntity(p.row);
      const action: TransactionAction = current
        ? ['update', entity, 'Replace', { etag: current.etag }]
        : ['create', entity];
      toWrite.push({ pending: p, action });
    }
  }
  // Each row is in the group once, so splitting it keeps every key's order: its one write is in one part.
  await Promise.all(inTransactions(toWrite).map((part) => submitPart(table, part, writeRow, signal)));
}

async function submitPart<R extends VersionedRow>(
  table: TableClient,
  part: readonly { readonly pending: Pending<R>; readonly action: TransactionAction }[],
  writeRow: WriteRow<R>,
  signal: AbortSignal,
) {
  const [only] = part;
  if (only && part.length === 1) {
    writeRow(only.pending.row, only.pending.signal).then(only.pending.resolve, only.pending.reject);
    return;
  }
  try {
    await table.submitTransaction(
      part.map((w) => w.action),
      { abortSignal: signal },
    );
    for (const { pending } of part) pending.resolve('applied');
  } catch (error) {
    if (!(error instanceof RestError) || classifyFailure(error).scope === 'outage') {
      for (const { pending } of part) pending.reject(error);
      return;
    }
    // Another writer got in between, or one row was refused: each row on its own, as without grouping.
    for (const { pending: p } of part) writeRow(p.row, p.signal).then(p.resolve, p.reject);
  }
}

/** The writes in transactions within the service's limits: at most 100 operations and under 4 MiB. */
function inTransactions<T extends { readonly action: TransactionAction }>(writes: readonly T[]): T[][] {
  const parts: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const w of writes) {
    const size = Buffer.byteLength(JSON.stringify(w.action[1])) + 512;
    if (
      current.length > 0 &&
      (current.length >= MAX_TRANSACTION_ROWS || bytes + size > MAX_TRANSACTION_BYTES)
    ) {
      parts.push(current);
      current = [];
      bytes = 0;
    }
    current.push(w);
    bytes += size;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/**
 * The current version and ETag of the group's rows: queries within the partition, each within the
 * service's 15 comparisons (the PartitionKey and up to 14 RowKeys), all at once.
 */
async function readRows(table: TableClient, group: readonly Pending<VersionedRow>[], signal: AbortSignal) {
  const found = new Map<string, { version: string; etag: string }>();
  const chunks = Array.from({ length: Math.ceil(group.length / ROWS_PER_READ) }, (_, i) =>
    group.slice(i * ROWS_PER_READ, (i + 1) * ROWS_PER_READ),
  );
  await Promise.all(
    chunks.map(async (chunk) => {
      const [first] = chunk;
      const rows = chunk.map((p) => odata`RowKey eq ${p.row.rowKey}`).join(' or ');
      const filter = `${odata`PartitionKey eq ${first?.row.partitionKey ?? ''}`} and (${rows})`;
      const entities = table.listEntities<{ version?: string }>({
        queryOptions: { filter, select: ['RowKey', 'version'] },
        abortSignal: signal,
      });
      for await (const entity of entities) {
        if (entity.rowKey !== undefined)
          found.set(entity.rowKey, { version: entity.version ?? '', etag: entity.etag });
      }
    }),
  );
  return found;
}

/** The row as the transaction types take it (every field kept). */
const asEntity = (row: VersionedRow): TableEntity => ({ ...row });
