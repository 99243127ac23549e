import type { SavedEvents } from '../deadLetters/savedEvents';
import type { Logger } from '../kernel/logger';
import type { BatchProcessor } from './batchProcessor';

export interface DrainResult {
  /** Saved events that reached the sink (or the dead-letter store, as any event can) and were removed. */
  readonly drained: number;
  readonly dead: number;
  readonly partitions: readonly string[];
}

/** Saved events written to the sink per processing call, as the host would deliver a batch. */
const DRAIN_BATCH = 100;

/**
 * Writes the saved events to the sink through the normal processing path (the same per-key order,
 * retries, hold and dead-letter rules), partition by partition in sequence order, and removes each
 * batch's blobs only after its batch returned. A batch the processor holds (the downstream still
 * failing) throws: the breaker then stays disabled and the caller reports it. A re-run (a killed
 * activity) starts again from the oldest blob still there: it repeats, never skips.
 */
export async function drainSavedEvents(
  saved: SavedEvents,
  processBatch: BatchProcessor,
  run: { readonly invocationId: string; readonly logger: Logger; readonly partitions?: readonly string[] },
): Promise<DrainResult> {
  let drained = 0;
  let dead = 0;
  const partitions = run.partitions ?? (await saved.partitions());
  for (const partitionId of partitions) {
    for (;;) {
      const events = await saved.read(partitionId, DRAIN_BATCH);
      if (events.length === 0) break;
      const result = await processBatch(events, {
        invocationId: run.invocationId,
        logger: run.logger,
        finalAttempt: false,
      });
      await saved.remove(
        partitionId,
        events.flatMap((e) => (e.sequenceNumber === undefined ? [] : [e.sequenceNumber])),
      );
      drained += result.processed;
      dead += result.deadLettered;
    }
  }
  return { drained, dead, partitions };
}
