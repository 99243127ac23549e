import type { Clock } from '../kernel/clock';
import { errorMessage } from '../kernel/ensureError';
import { redactSecrets } from '../kernel/redactSecrets';
import { untilAborted } from '../kernel/untilAborted';
import type { Checkpoint } from './checkpoints';
import type { HubReader, PartitionFacts } from './hubReader';

export interface PartitionHeld {
  readonly partitionId: string;
  /** Events in the hub after the checkpoint: what the trigger has yet to process. */
  readonly held: number;
  /** Enqueued time of the oldest held event; undefined when nothing is held or it was not read. */
  readonly oldestEnqueuedAt: number | undefined;
  /** Sequence number of the first held event: it moves only when the consumer checkpoints past it. */
  readonly firstHeld?: number | undefined;
}

export type HeldBacklog =
  | {
      readonly known: true;
      readonly at: number;
      readonly partitions: readonly PartitionHeld[];
      readonly total: number;
      readonly oldestEnqueuedAt: number | undefined;
      /** When retention starts dropping the oldest held event: the first loss. */
      readonly retentionEndsAt: number | undefined;
      /** When the retention guard saves them (the first loss minus its margin); absent when it is off. */
      readonly guardSavesAt?: number | undefined;
      /** Why the oldest age is missing although events are held (not OPEN, peek failed). */
      readonly oldestUnknown: string | undefined;
    }
  | { readonly known: false; readonly at: number; readonly reason: string };

export interface HeldBacklogDeps {
  readonly hub: HubReader;
  readonly checkpoints: (abortSignal: AbortSignal) => Promise<Map<string, Checkpoint>>;
  readonly retentionHours: number;
  /** The retention guard's margin (RETENTION_SAVE_MARGIN_MINUTES) when it runs; absent: it does not. */
  readonly saveMarginMs?: number;
  readonly clock: Clock;
  readonly timeoutMs?: number;
  /** Where the hub and the checkpoints are read from, for a reason a person can act on. */
  readonly source?: { readonly hub: string; readonly checkpoints: string };
}

/** A page must render even when the hub is slow: the whole read is bounded. */
const DEFAULT_TIMEOUT_MS = 8_000;

/**
 * The first held sequence number and the count behind the checkpoint. Without a checkpoint the host
 * starts from the beginning (host.json `initialOffsetOptions.type` fromStart), so all of it is held.
 */
export function heldInPartition(facts: PartitionFacts, checkpoint: Checkpoint | undefined) {
  if (facts.isEmpty) return { held: 0, first: undefined };
  const afterCheckpoint = checkpoint?.sequenceNumber === undefined ? 0 : checkpoint.sequenceNumber + 1;
  const first = Math.max(afterCheckpoint, facts.beginningSequenceNumber);
  const held = Math.max(0, facts.lastEnqueuedSequenceNumber - first + 1);
  return { held, first: held > 0 ? first : undefined };
}

/**
 * Per partition, what is held behind the host's checkpoints and how old the oldest is; never throws:
 * an unreadable hub or checkpoint store gives `known: false` with the reason. The oldest event is
 * peeked (a one-event receive) only when `peekOldest` — while the breaker is OPEN, when the host's
 * own receivers are stopped and the age is what the operator needs.
 */
export async function readHeldBacklog(deps: HeldBacklogDeps, peekOldest: boolean): Promise<HeldBacklog> {
  const at = deps.clock.now();
  const signal = AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let partitions: PartitionFacts[];
  let checkpoints: Map<string, Checkpoint>;
  try {
    [partitions, checkpoints] = await untilAborted(
      Promise.all([
        deps.hub.partitions(signal).catch(failedReading(deps.source?.hub ?? 'the hub')),
        deps.checkpoints(signal).catch(failedReading(deps.source?.checkpoints ?? 'the checkpoints')),
      ]),
      signal,
    );
  } catch (error) {
    return { known: false, at, reason: reasonOf(error, signal) };
  }
  const counted = partitions.map((p) => ({
    partitionId: p.partitionId,
    ...heldInPartition(p, checkpoints.get(p.partitionId)),
  }));
  let oldestUnknown: string | undefined = peekOldest ? undefined : 'read only while the breaker is OPEN';
  const withAges = await Promise.all(
    counted.map(async ({ partitionId, held, first }): Promise<PartitionHeld> => {
      if (!peekOldest || first === undefined)
        return { partitionId, held, oldestEnqueuedAt: undefined, firstHeld: first };
      try {
        return {
          partitionId,
          held,
          oldestEnqueuedAt: await untilAborted(deps.hub.enqueuedTimeOf(partitionId, first, signal), signal),
          firstHeld: first,
        };
      } catch (error) {
        oldestUnknown = `partition ${partitionId}: ${reasonOf(error, signal)}`;
        return { partitionId, held, oldestEnqueuedAt: undefined, firstHeld: first };
      }
    }),
  );
  const ages = withAges.flatMap((p) => (p.oldestEnqueuedAt === undefined ? [] : [p.oldestEnqueuedAt]));
  const oldest = ages.length === 0 ? undefined : Math.min(...ages);
  const total = withAges.reduce((sum, p) => sum + p.held, 0);
  const retentionEndsAt = oldest === undefined ? undefined : oldest + deps.retentionHours * 3_600_000;
  return {
    known: true,
    at,
    partitions: withAges,
    total,
    oldestEnqueuedAt: oldest,
    retentionEndsAt,
    ...(deps.saveMarginMs !== undefined && {
      guardSavesAt: retentionEndsAt === undefined ? undefined : retentionEndsAt - deps.saveMarginMs,
    }),
    oldestUnknown: total === 0 ? undefined : oldestUnknown,
  };
}

const MAX_REASON_CHARS = 200;

/** Names what was being read in the error, so the page says "could not read Event Hubs at …: …". */
const failedReading = (what: string) => (error: unknown) => {
  throw new Error(`could not read ${what}: ${errorMessage(error)}`, { cause: error });
};

function reasonOf(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'the hub did not answer in time';
  const text = redactSecrets(errorMessage(error).replace(/\s+/g, ' ').trim());
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}
