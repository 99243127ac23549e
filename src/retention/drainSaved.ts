import type { ReceivedEvent } from '../hub/receivedEvent';
import type { Logger } from '../kernel/logger';
import type { BatchProcessor } from '../processing/batchProcessor';
import type { SavedFirst } from '../processing/processHandler';
import type { SavedEvents } from './savedEvents';

export interface DrainResult {
  /** Saved events that reached the sink (or the dead-letter store, as any event can) and were removed. */
  readonly drained: number;
  readonly dead: number;
  readonly partitions: readonly string[];
  /** Per partition, the highest sequence number drained (saved meanwhile included). */
  readonly through: Readonly<Record<string, number>>;
  /**
   * Per partition, the events whose intact saved copy (`SavedRead.intact`) was drained: only these are
   * done for a live batch. A blob that only bears an event's name (renamed, edited) or is far ahead of
   * the partition (left from a hub created again, written by hand) makes no live event count as done.
   */
  readonly intact: Readonly<Record<string, readonly number[]>>;
}

/** Saved events written to the sink per processing call, as the host would deliver a batch. */
const DRAIN_BATCH = 100;

/**
 * Writes the saved events to the sink through the normal processing path (the same per-key order,
 * retries, hold and dead-letter rules), partition by partition in sequence order, and removes each
 * batch's blobs only after its batch returned. A batch the processor holds (the downstream still
 * failing) throws: the breaker then stays disabled and the caller reports it, and the drain runs again
 * later (the watchdog, a minute on). Each held run is counted on the batch's first saved blob, so the
 * next run of that batch is its next re-run, as the host counts a held batch's re-runs: an event that
 * fails alone while the downstream takes the others is dead-lettered as `isolated` on the re-run the
 * live path would isolate it, rather than blocking the drain, and the re-enable behind it, for good. A
 * re-run (a killed activity) starts again from the oldest blob still there: it repeats, never skips.
 */
export async function drainSavedEvents(
  saved: SavedEvents,
  processBatch: BatchProcessor,
  run: {
    readonly invocationId: string;
    readonly logger: Logger;
    readonly partitions?: readonly string[];
    /** The host's re-run count when a held batch drains its partition first (the larger count wins). */
    readonly rerun?: number;
  },
): Promise<DrainResult> {
  let drained = 0;
  let dead = 0;
  const through: Record<string, number> = {};
  const intact: Record<string, number[]> = {};
  const processHeld = async (events: ReceivedEvent[], partitionId: string, first: number) => {
    const rerun = Math.max(run.rerun ?? 0, await saved.heldRuns(partitionId, first));
    try {
      return await processBatch(events, {
        invocationId: run.invocationId,
        logger: run.logger,
        finalAttempt: false,
        rerun,
      });
    } catch (error) {
      // Best effort: a count not written makes the next run repeat this re-run, never skip one.
      await saved.recordHeldRun(partitionId, first, rerun + 1).catch(() => undefined);
      throw error;
    }
  };
  const partitions = run.partitions ?? (await saved.partitions());
  for (const partitionId of partitions) {
    // One listing per pass, not per batch; a pass that found any looks again (the guard may have saved
    // more of this partition meanwhile), so the call ends only with none left.
    for (let seqs = await saved.sequenceNumbers(partitionId); seqs.length > 0;) {
      for (let i = 0; i < seqs.length; i += DRAIN_BATCH) {
        const chunk = seqs.slice(i, i + DRAIN_BATCH);
        const { events, intact: copies } = await saved.read(partitionId, chunk);
        const first = events[0]?.sequenceNumber;
        if (first !== undefined) {
          const result = await processHeld(events, partitionId, first);
          drained += result.processed;
          dead += result.deadLettered;
        }
        // Only what was read: a blob gone meanwhile needs no removal, one too large to be a saved event stays.
        await saved.remove(
          partitionId,
          events.flatMap((e) => (e.sequenceNumber === undefined ? [] : [e.sequenceNumber])),
        );
        through[partitionId] = Math.max(through[partitionId] ?? -1, ...chunk);
        (intact[partitionId] ??= []).push(...copies);
      }
      seqs = await saved.sequenceNumbers(partitionId);
    }
  }
  return { drained, dead, partitions, through, intact };
}

/**
 * Before a batch of a partition is processed: the events the retention guard saved for it go first.
 * Covers a partition held while the breaker is CLOSED (a held batch, a store outage, a downstream failing
 * below the threshold), whose running listener never re-reads the checkpoint the guard moved: on the
 * held batch's next re-run the saved events are drained in order, and the batch's own events whose intact
 * copy was drained count as done (never all up to the last saved name: a stray blob far ahead would
 * skip live events). Returns those sequence numbers (undefined: none saved).
 * A held batch always looks; another looks at most once per `ttlMs` per partition and process (a
 * partition that moved here after a save, or a consumer so far behind that the guard saved).
 */
export function makeSavedFirst(
  saved: SavedEvents,
  processBatch: BatchProcessor,
  now: () => number,
  ttlMs = 60_000,
): SavedFirst {
  const noneSince = new Map<string, number>();
  return async (
    partitionId: string,
    run: { readonly rerun: number; readonly invocationId: string; readonly logger: Logger },
  ): Promise<ReadonlySet<number> | undefined> => {
    const checkedAt = noneSince.get(partitionId);
    if (run.rerun === 0 && checkedAt !== undefined && now() - checkedAt < ttlMs) return undefined;
    const seqs = await saved.sequenceNumbers(partitionId);
    if (seqs.length === 0) {
      noneSince.set(partitionId, now());
      return undefined;
    }
    noneSince.delete(partitionId);
    const result = await drainSavedEvents(saved, processBatch, {
      invocationId: run.invocationId,
      logger: run.logger,
      partitions: [partitionId],
      rerun: run.rerun,
    });
    run.logger.warn(
      `partition ${partitionId}: ${result.drained} events saved before the hub's retention reached the sink first`,
    );
    // Saved meanwhile (the guard's next run) counts too: the batch's own copies of them are done.
    return new Set(result.intact[partitionId]);
  };
}
