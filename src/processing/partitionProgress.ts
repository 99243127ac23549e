import { type DeadLetterReason, deadLetterReasons } from '../deadLetters/deadLetter';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../kernel/logger';
import { type HoldReason, stuckHoldReasons } from './errors';

/** One run of a batch, as the processor reports it. */
export interface PartitionRun {
  readonly partitionId: string | undefined;
  readonly firstSequence: number | undefined;
  readonly rerun: number;
  /** `completed`: every event processed or dead-lettered; otherwise why the batch was held. */
  readonly outcome: 'completed' | HoldReason;
  /** A completed run: the reason of each dead letter it stored. */
  readonly deadLettered?: readonly DeadLetterReason[];
}

/** A partition's batch as this instance last saw it. */
export interface PartitionView {
  readonly partitionId: string;
  /** Held now: the latest run threw and the host will re-run the batch. */
  readonly held: boolean;
  readonly reason: HoldReason | undefined;
  /** First sequence number of the held batch. */
  readonly firstSequence: number | undefined;
  /** The host's re-run count of the latest run. */
  readonly rerun: number;
  readonly heldSince: number | undefined;
  /** Held runs since this instance started, and the most re-runs one batch needed. */
  readonly heldRuns: number;
  readonly maxRerun: number;
  /** Held over and over for a reason that is not an outage. */
  readonly stuck: boolean;
}

export interface ProgressSnapshot {
  readonly partitions: readonly PartitionView[];
  /** Partitions whose batch is held now. */
  readonly heldBatches: number;
  readonly stuckPartitions: number;
  /** Times a partition became stuck since this instance started (the counter). */
  readonly stuckEpisodes: number;
  /** Dead letters this instance stored since it started, per reason (`future-timestamp`: a gateway's clock). */
  readonly deadLettered: Readonly<Record<DeadLetterReason, number>>;
}

export interface PartitionProgress {
  ran(run: PartitionRun): void;
  snapshot(): ProgressSnapshot;
}

export interface PartitionProgressOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Re-runs after which a hold that is not an outage counts as stuck. */
  readonly stuckAfterReruns: number;
  /** At most one "still stuck" line per partition per interval. */
  readonly logIntervalMs: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const MAX_PARTITION_ID = 64;

/**
 * Held batches and re-runs per partition, as this instance sees them (the status page, the demo). A
 * partition held over and over for a reason that is not an outage (dead letters that cannot be stored,
 * events failing while others get through) is stuck: it is counted, logged once per interval with the
 * partition and sequence number, and shown. Bounded: one entry per partition id.
 */
export function makePartitionProgress(options: PartitionProgressOptions): PartitionProgress {
  const { clock, logger } = options;
  const partitions = new Map<string, Mutable<PartitionView> & { lastLogAt: number }>();
  let stuckEpisodes = 0;
  const deadLettered = Object.fromEntries(deadLetterReasons.map((r) => [r, 0])) as Record<
    DeadLetterReason,
    number
  >;

  return {
    ran(run) {
      const id = (run.partitionId ?? '?').slice(0, MAX_PARTITION_ID);
      const now = clock.now();
      const p = partitions.get(id) ?? {
        partitionId: id,
        held: false,
        reason: undefined,
        firstSequence: undefined,
        rerun: 0,
        heldSince: undefined,
        heldRuns: 0,
        maxRerun: 0,
        stuck: false,
        lastLogAt: 0,
      };
      partitions.set(id, p);
      const where = `partition ${id} at sequence ${run.firstSequence ?? '?'}`;
      for (const reason of run.deadLettered ?? []) deadLettered[reason]++;
      if (run.outcome === 'completed') {
        if (p.stuck) logger.log(`${where} moves again after ${run.rerun} re-run(s)`);
        Object.assign(p, {
          held: false,
          reason: undefined,
          stuck: false,
          heldSince: undefined,
          rerun: run.rerun,
        });
        p.maxRerun = Math.max(p.maxRerun, run.rerun);
        return;
      }
      if (!p.held || p.firstSequence !== run.firstSequence) p.heldSince = now;
      Object.assign(p, {
        held: true,
        reason: run.outcome,
        firstSequence: run.firstSequence,
        rerun: run.rerun,
      });
      p.heldRuns++;
      p.maxRerun = Math.max(p.maxRerun, run.rerun);
      const stuck = stuckHoldReasons.includes(run.outcome) && run.rerun >= options.stuckAfterReruns;
      const line = `${where} cannot make progress: its batch was held ${run.rerun + 1} time(s) since ${new Date(p.heldSince ?? now).toISOString()} (${run.outcome})`;
      if (stuck && !p.stuck) {
        stuckEpisodes++;
        p.lastLogAt = now;
        logger.error(line);
      } else if (stuck && now - p.lastLogAt >= options.logIntervalMs) {
        p.lastLogAt = now;
        logger.error(line);
      }
      p.stuck = stuck;
    },
    snapshot() {
      const views = [...partitions.values()]
        .map(({ lastLogAt: _l, ...view }) => view)
        .sort((a, b) => a.partitionId.localeCompare(b.partitionId, 'en', { numeric: true }));
      return {
        partitions: views,
        heldBatches: views.filter((v) => v.held).length,
        stuckPartitions: views.filter((v) => v.stuck).length,
        stuckEpisodes,
        deadLettered: { ...deadLettered },
      };
    },
  };
}
