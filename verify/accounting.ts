import { odata } from '@azure/data-tables';

import { readCheckpoints } from '../src/hub/checkpoints';
import { eventNumberOf, homePrefix, type VerifyPlan } from './plan';
import type { TargetStores } from './target';

/** Where each event of the run was found. */
export interface Accounting {
  /** Event numbers the sink holds. */
  readonly processed: ReadonlySet<number>;
  /** Event number → dead-letter reason (events also in the sink count as processed: redriven). */
  readonly deadLettered: ReadonlyMap<number, string>;
}

/** Most dead-letter blobs read in one accounting: bounds a run against a container with old letters. */
const MAX_LETTERS = 10_000;

/** Reads the run's rows from the sink (one range query) and its dead letters (bodies carry the run id). */
export async function accountRun(
  stores: TargetStores,
  plan: VerifyPlan,
  functionName: string,
  since: Date,
): Promise<Accounting> {
  const prefix = homePrefix(plan.run);
  const processed = new Set<number>();
  // Every key of the run starts with the prefix; '.' sorts right after '-'.
  const filter = odata`PartitionKey ge ${prefix} and PartitionKey lt ${`${prefix.slice(0, -1)}.`}`;
  try {
    for await (const row of stores.sinkTable.listEntities({ queryOptions: { filter, select: ['RowKey'] } })) {
      const m = /^e(\d+)$/.exec(row.rowKey ?? '');
      if (m?.[1] !== undefined) processed.add(Number(m[1]));
    }
  } catch (error) {
    if ((error as { statusCode?: unknown }).statusCode !== 404) throw error;
  }
  const deadLettered = new Map<number, string>();
  let read = 0;
  try {
    for await (const blob of stores.deadLetters.listBlobsFlat({
      prefix: `${functionName}/`,
      includeMetadata: true,
    })) {
      const reason = blob.metadata?.reason;
      const created = blob.properties.createdOn ?? blob.properties.lastModified;
      if (reason === undefined || created < since || ++read > MAX_LETTERS) continue;
      const body = (await stores.deadLetters.getBlobClient(blob.name).downloadToBuffer()).toString('utf8');
      const n = eventNumberOf(plan.run, body);
      if (n !== undefined && !processed.has(n)) deadLettered.set(n, reason);
    }
  } catch (error) {
    if ((error as { statusCode?: unknown }).statusCode !== 404) throw error;
  }
  return { processed, deadLettered };
}

const CHECKPOINT_READ_MS = 20_000;

/** Reading the host's checkpoints got no answer in time (storage unreachable from this machine). */
export class CheckpointReadError extends Error {
  readonly code = 'CHECKPOINT_READ';
  override readonly name = 'CheckpointReadError';
}

/** Per partition, the sequence number of the last event the host checkpointed (undefined: none yet). */
export async function readCheckpointPositions(
  stores: TargetStores,
  timeoutMs = CHECKPOINT_READ_MS,
): Promise<Map<string, number | undefined>> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const found = await readCheckpoints(stores.checkpoints.container, stores.checkpoints.prefix, signal);
    return new Map([...found].map(([partitionId, c]) => [partitionId, c.sequenceNumber]));
  } catch (error) {
    if (!signal.aborted) throw error;
    throw new CheckpointReadError(
      `reading the host's checkpoints (container ${stores.checkpoints.container.containerName}): no answer within ${timeoutMs / 1000} s`,
    );
  }
}
