/**
 * An instance's history as the Azure Storage backend wrote it (the `<hub>History` table), read straight
 * from the storage account: the extension's own record of when each timer was due and when it fired.
 */
import { TableClient } from '@azure/data-tables';

export interface StoredHistoryEvent {
  readonly eventType: string;
  readonly eventId: number;
  /** When the extension wrote the event (its `Timestamp`, stored as `_Timestamp`). */
  readonly at: number;
  /** TimerCreated / TimerFired: when the timer was due. */
  readonly fireAt?: number;
  /** TimerFired: the TimerCreated it answers. */
  readonly timerId?: number;
  /** TaskScheduled: the activity. */
  readonly name?: string;
  /** ExecutionStarted: the version the instance was started with. */
  readonly version?: string;
  /** The time of the episode that wrote the event (its OrchestratorStarted): what the orchestrator saw. */
  readonly episodeAt: number;
}

export async function storedHistory(
  connectionString: string,
  taskHub: string,
  instanceId: string,
): Promise<StoredHistoryEvent[]> {
  const table = TableClient.fromConnectionString(connectionString, `${taskHub}History`, {
    allowInsecureConnection: true,
  });
  const out: StoredHistoryEvent[] = [];
  let episodeAt = NaN;
  const rows = table.listEntities({
    queryOptions: { filter: `PartitionKey eq '${instanceId.replace(/'/g, "''")}'` },
  });
  for await (const row of rows) {
    const date = (v: unknown) =>
      v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : NaN;
    const fireAt = date(row.FireAt);
    const timerId = row.TimerId;
    const at = date(row._Timestamp);
    if (row.EventType === 'OrchestratorStarted') episodeAt = at;
    out.push({
      eventType: String(row.EventType),
      eventId: Number(row.EventId),
      at,
      episodeAt,
      ...(Number.isFinite(fireAt) ? { fireAt } : {}),
      ...(typeof timerId === 'number' ? { timerId } : {}),
      ...(typeof row.Name === 'string' ? { name: row.Name } : {}),
      ...(typeof row.Version === 'string' ? { version: row.Version } : {}),
    });
  }
  return out;
}

/**
 * For each fired timer: the orchestrator's time in the episode that saw it fire, minus its FireAt, in
 * ms (negative: the orchestrator woke before the deadline). Rows come in history order (RowKey).
 */
export function timerLateness(history: readonly StoredHistoryEvent[]): number[] {
  return history
    .filter((e) => e.eventType === 'TimerFired' && e.fireAt !== undefined)
    .map((e) => e.episodeAt - (e.fireAt ?? 0));
}
