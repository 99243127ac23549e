import type { ContainerClient } from '@azure/storage-blob';

import type { AcquirePartitionLease } from '../deadLetters/partitionLease';
import { heldInPartition } from '../hub/heldBacklog';
import type { HubEventReader } from '../hub/hubEventReader';
import type { HubReader } from '../hub/hubReader';
import { emitEvent } from '../kernel/appEvent';
import { boundText } from '../kernel/boundText';
import type { Clock } from '../kernel/clock';
import { errorMessage } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import { redactSecrets } from '../kernel/redactSecrets';
import { moveCheckpoint, readCheckpointBlob } from './checkpointMove';
import { CheckpointMovedError } from './errors';
import type { SavedEvents } from './savedEvents';

export interface RetentionGuardConfig {
  /** How long the hub keeps an event (EVENTHUB_RETENTION_HOURS). */
  readonly retentionMs: number;
  /** Save once the oldest waiting event is this close to the retention (RETENTION_SAVE_MARGIN_MINUTES). */
  readonly marginMs: number;
}

/**
 * The margin: as configured, else a seventh of the retention (24 h of the default 168 h), whole minutes,
 * at least one. A seventh leaves the save a day to catch up at its bound rate on the default hub, and
 * storage that long to be down, while the first save still comes six days after the trip.
 */
export function saveMarginMs(retentionMs: number, configuredMinutes: number | undefined): number {
  return (configuredMinutes ?? Math.max(1, Math.floor(retentionMs / 60_000 / 7))) * 60_000;
}

export interface RetentionGuardDeps extends RetentionGuardConfig {
  readonly hub: HubReader;
  readonly events: HubEventReader;
  readonly checkpoints: { readonly container: ContainerClient; readonly prefix: string };
  readonly saved: SavedEvents;
  readonly lease: AcquirePartitionLease;
  readonly clock: Clock;
  /** Where the saved events are, in words (the channels say it). */
  readonly savedWhere: string;
  /** Events saved per partition and run at most; the next run (a minute later) goes on. */
  readonly maxPerRun?: number;
  /**
   * Enqueued times of the first waiting event already peeked, per partition and sequence number: a
   * partition that has not moved costs no peek on the next run. Kept by the caller for the process.
   */
  readonly peeked?: Map<string, { readonly sequenceNumber: number; readonly enqueuedAt: number }>;
  /** One read of the hub in a run at most this long (then the run reports the partition as failed). */
  readonly readTimeoutMs?: number;
}

/** What one run did for one partition. */
export type PartitionGuardResult =
  | { readonly partitionId: string; readonly outcome: 'nothing-waiting' }
  | { readonly partitionId: string; readonly outcome: 'in-time'; readonly lossAt: number }
  | { readonly partitionId: string; readonly outcome: 'locked' }
  | {
      readonly partitionId: string;
      readonly outcome: 'saved';
      readonly saved: number;
      readonly from: number;
      readonly through: number;
      readonly lossAt: number;
    }
  | {
      readonly partitionId: string;
      readonly outcome: 'failed';
      readonly reason: string;
      readonly lossAt?: number;
    };

export interface RetentionGuardRun {
  readonly at: number;
  readonly partitions: readonly PartitionGuardResult[];
  /** Events saved by this run. */
  readonly saved: number;
  /** The hub could not be read at all: nothing was checked. */
  readonly failure?: string;
}

export const DEFAULT_MAX_PER_RUN = 5_000;
const READ_CHUNK = 500;

/**
 * One run of the retention guard (the watchdog runs it every minute). For each partition: the host's
 * checkpoint and the oldest event waiting behind it; once that event is within the margin of the hub's
 * retention, every waiting event (bounded per run) is saved to blobs without calling the downstream,
 * then the checkpoint moves to the last saved event, only if nobody moved it meanwhile (ETag). The
 * checkpoint never moves past an event that is not saved; a failure is logged loudly
 * (`Breakwater.RetentionSaveFailed`) and the next run tries again. Never throws.
 */
export async function runRetentionGuard(
  deps: RetentionGuardDeps,
  logger: Logger,
): Promise<RetentionGuardRun> {
  const at = deps.clock.now();
  let partitions;
  try {
    partitions = await deps.hub.partitions(AbortSignal.timeout(deps.readTimeoutMs ?? 10_000));
  } catch (error) {
    const reason = reasonOf(error);
    emitEvent(logger, 'error', 'retentionSaveFailed', {
      partitionId: null,
      reason: `could not read the hub: ${reason}`,
      minutesLeft: null,
    });
    return { at, partitions: [], saved: 0, failure: reason };
  }
  const results: PartitionGuardResult[] = [];
  for (const facts of partitions) results.push(await guardPartition(deps, facts, logger));
  return {
    at,
    partitions: results,
    saved: results.reduce((n, r) => n + (r.outcome === 'saved' ? r.saved : 0), 0),
  };
}

async function guardPartition(
  deps: RetentionGuardDeps,
  facts: Awaited<ReturnType<HubReader['partitions']>>[number],
  logger: Logger,
): Promise<PartitionGuardResult> {
  const { partitionId } = facts;
  const { retentionMs } = deps;
  const signal = () => AbortSignal.timeout(deps.readTimeoutMs ?? 10_000);
  let lossAt: number | undefined;
  const fail = (reason: string): PartitionGuardResult => {
    const minutesLeft = lossAt === undefined ? null : Math.floor((lossAt - deps.clock.now()) / 60_000);
    emitEvent(logger, 'error', 'retentionSaveFailed', { partitionId, reason, minutesLeft });
    return { partitionId, outcome: 'failed', reason, ...(lossAt === undefined ? {} : { lossAt }) };
  };
  try {
    const { container, prefix } = deps.checkpoints;
    const checkpoint = await readCheckpointBlob(container, prefix, partitionId, signal());
    const { held, first } = heldInPartition(facts, checkpoint);
    if (first === undefined) return { partitionId, outcome: 'nothing-waiting' };
    const known = deps.peeked?.get(partitionId);
    const oldest =
      known?.sequenceNumber === first
        ? known.enqueuedAt
        : await deps.hub.enqueuedTimeOf(partitionId, first, signal());
    if (oldest === undefined) return { partitionId, outcome: 'nothing-waiting' };
    deps.peeked?.set(partitionId, { sequenceNumber: first, enqueuedAt: oldest });
    lossAt = oldest + retentionMs;
    if (deps.clock.now() < lossAt - deps.marginMs) return { partitionId, outcome: 'in-time', lossAt };

    const lease = await deps.lease(partitionId);
    if (lease === undefined) return { partitionId, outcome: 'locked' };
    try {
      // Read again under the lease: another instance may have saved and moved it since the read above
      // (its lease released in between); saving from the stale checkpoint would only duplicate.
      const underLease = await readCheckpointBlob(container, prefix, partitionId, signal());
      if (heldInPartition(facts, underLease).first !== first) return { partitionId, outcome: 'locked' };
      const max = Math.min(held, deps.maxPerRun ?? DEFAULT_MAX_PER_RUN);
      let next = first;
      let saved = 0;
      let last: { sequenceNumber: number; offset: string } | undefined;
      let from: number | undefined;
      while (saved < max) {
        const events = await deps.events.read(partitionId, next, Math.min(READ_CHUNK, max - saved), signal());
        if (events.length === 0) break;
        await deps.saved.save(events);
        const tail = events[events.length - 1];
        if (tail?.sequenceNumber === undefined || tail.offset === undefined) break;
        from ??= events[0]?.sequenceNumber;
        last = { sequenceNumber: tail.sequenceNumber, offset: tail.offset };
        saved += events.length;
        next = tail.sequenceNumber + 1;
      }
      if (last === undefined || from === undefined)
        return fail('the hub returned none of the waiting events');
      try {
        await moveCheckpoint(container, prefix, partitionId, underLease, last, signal());
      } catch (error) {
        if (!(error instanceof CheckpointMovedError)) throw error;
        // Someone else wrote it: re-read; the saved blobs stay, and the next run starts from there.
        const now = await readCheckpointBlob(container, prefix, partitionId, signal());
        if ((now.sequenceNumber ?? -1) < last.sequenceNumber)
          return fail(`saved ${saved} events but ${error.message}; the next run moves it`);
      }
      emitEvent(logger, 'warn', 'retentionSaved', {
        partitionId,
        saved,
        from,
        through: last.sequenceNumber,
        where: deps.savedWhere,
      });
      return { partitionId, outcome: 'saved', saved, from, through: last.sequenceNumber, lossAt };
    } finally {
      await lease.release();
    }
  } catch (error) {
    return fail(reasonOf(error));
  }
}

const reasonOf = (error: unknown) =>
  boundText(redactSecrets(errorMessage(error).replace(/\s+/g, ' ').trim()), 300);
