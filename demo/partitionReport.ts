import type { InvocationRecord } from '../sim/host/triggerHostModel';
import type { SinkWrite } from '../sim/world/breakwaterWorld';

/** Held batches and re-runs of one partition, as the host saw them. */
export interface PartitionHolds {
  readonly partitionId: string;
  /** Invocations that threw: the batch was held and re-run behind the checkpoint. */
  readonly heldRuns: number;
  /** The most re-runs one batch of the partition needed. */
  readonly maxRerun: number;
}

export function partitionHolds(invocations: readonly InvocationRecord[]): PartitionHolds[] {
  const byPartition = new Map<string, { heldRuns: number; maxRerun: number }>();
  for (const i of invocations) {
    const p = byPartition.get(i.partitionId) ?? { heldRuns: 0, maxRerun: 0 };
    if (i.outcome === 'threw') p.heldRuns++;
    p.maxRerun = Math.max(p.maxRerun, i.retryCount);
    byPartition.set(i.partitionId, p);
  }
  return [...byPartition]
    .map(([partitionId, p]) => ({ partitionId, ...p }))
    .sort((a, b) => Number(a.partitionId) - Number(b.partitionId));
}

/** One line for all partitions: `p0 3/2` = 3 held runs, at most 2 re-runs of one batch. */
export function formatHolds(holds: readonly PartitionHolds[]): string[] {
  const total = holds.reduce((n, h) => n + h.heldRuns, 0);
  return [
    `held batches and re-runs per partition (held runs/most re-runs of one batch), ${total} held run(s) in all:`,
    `  ${holds.map((h) => `p${h.partitionId} ${h.heldRuns}/${h.maxRerun}`).join('  ')}`,
  ];
}

/**
 * Partitions whose first writes of their events did not come in sequence order (G2); with `byKey`
 * (ORDERING=key) the order is checked per key (home, sensor) within each partition. Empty is good.
 */
export function partitionsOutOfOrder(writes: readonly SinkWrite[], byKey = false): string[] {
  const next = new Map<string, number>();
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const w of writes) {
    const key = `${w.partitionId}/${w.sequenceNumber}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const stream = byKey ? `${w.partitionId} ${w.key}` : w.partitionId;
    if (w.sequenceNumber < (next.get(stream) ?? 0)) out.add(w.partitionId);
    next.set(stream, Math.max(next.get(stream) ?? 0, w.sequenceNumber + 1));
  }
  return [...out].sort();
}
