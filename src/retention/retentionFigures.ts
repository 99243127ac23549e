import type { RetentionGuardRun } from './retentionGuard';

/** What one run of the retention guard tells the channels: the first loss ahead and what it saved. */
export interface RetentionFigures {
  /** When the hub drops the oldest event still waiting unsaved; undefined when nothing waits. */
  readonly firstLossAt: number | undefined;
  /** Events the run saved to blobs. */
  readonly saved: number;
}

/**
 * The earliest loss among the partitions still waiting after the run (in time, or failed with the
 * oldest known). A partition the run saved is out of danger (a bounded run leaves the rest to the next
 * minute, which reports it); a locked one is another instance's to save.
 */
export function retentionFigures(run: RetentionGuardRun): RetentionFigures {
  const losses = run.partitions.flatMap((p) =>
    (p.outcome === 'in-time' || p.outcome === 'failed') && p.lossAt !== undefined ? [p.lossAt] : [],
  );
  return { firstLossAt: losses.length === 0 ? undefined : Math.min(...losses), saved: run.saved };
}
