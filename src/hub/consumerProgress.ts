import type { HeldBacklog } from './heldBacklog';

/** What the heartbeat says about the consumer: its lag and whether it has stopped moving. */
export interface ConsumerProgress {
  /** Events in the hub behind the checkpoints; null when the hub or the checkpoints did not answer. */
  readonly waitingEvents: number | null;
  /**
   * The longest time any partition has had events waiting without its checkpoint moving, as this
   * process saw it (0 when every partition is caught up or moving); null when not read.
   */
  readonly stalledSeconds: number | null;
}

const UNKNOWN: ConsumerProgress = { waitingEvents: null, stalledSeconds: null };

/**
 * Consumer lag and stall from successive backlog reads (the held backlog without peeking: while the
 * host consumes it holds each partition's receiver, so the oldest waiting event cannot be read). A
 * partition is stalled from the first read that saw events waiting at its current first-held sequence
 * number until a read sees that number move. Times are the reads' own (the injected clock), never the
 * storage server's. The memory is this process's: after a restart a stall is counted again from the
 * first read, so it is reported late, never early. Never throws.
 */
export function makeConsumerProgress(read: () => Promise<HeldBacklog>): () => Promise<ConsumerProgress> {
  const waitingSince = new Map<string, { readonly firstHeld: number; readonly since: number }>();
  return async () => {
    let backlog: HeldBacklog;
    try {
      backlog = await read();
    } catch {
      return UNKNOWN;
    }
    if (!backlog.known) return UNKNOWN;
    let stalledMs = 0;
    for (const { partitionId, held, firstHeld } of backlog.partitions) {
      if (held === 0 || firstHeld === undefined) {
        waitingSince.delete(partitionId);
        continue;
      }
      let entry = waitingSince.get(partitionId);
      if (entry?.firstHeld !== firstHeld) {
        entry = { firstHeld, since: backlog.at };
        waitingSince.set(partitionId, entry);
      }
      stalledMs = Math.max(stalledMs, backlog.at - entry.since);
    }
    return { waitingEvents: backlog.total, stalledSeconds: Math.round(stalledMs / 1000) };
  };
}
