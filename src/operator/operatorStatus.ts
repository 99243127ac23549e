import type { InvocationContext } from '@azure/functions';

import { failuresIn } from '../breaker/breakerPolicy';
import {
  type BreakerState,
  readableTrips,
  type TripEntry,
  type TripRecord,
  type WindowBucket,
} from '../breaker/breakerStore';
import { isTriggerDisabled } from '../control/triggerSwitch';
import type { HeldBacklog } from '../hub/heldBacklog';
import { ensureError } from '../kernel/ensureError';
import type { Maintenance } from '../maintenance/maintenance';
import type { OrchestrationView } from '../orchestration/orchestrationControl';
import type { ProgressSnapshot } from '../processing/partitionProgress';
import type { OperatorDeps, SavedEventsView } from './operatorDeps';

/** A snapshot of the breaker for the status API and dashboard. Parts that could not be read are null. */
export interface OperatorStatus {
  readonly functionName: string;
  readonly at: number;
  readonly breaker: BreakerState | null;
  readonly orchestration: OrchestrationView | null;
  readonly buckets: readonly WindowBucket[] | null;
  readonly failuresInWindow: number | null;
  /** The threshold in force now: the probation threshold while HALF_OPEN. */
  readonly activeThreshold: number;
  /** Newest first; records that do not parse are UnreadableTrip entries. */
  readonly trips: readonly TripEntry[] | null;
  /** The record of the breaker's current trip (its latest downstream probe), when there is one. */
  readonly currentTrip: TripRecord | undefined;
  /** What the hub holds behind the checkpoints; null when no reader is configured. */
  readonly held: HeldBacklog | null;
  readonly triggerDisabled: boolean | null;
  /** The maintenance in force (undefined: none); null when its record could not be read. */
  readonly maintenance: Maintenance | undefined | null;
  readonly deadLetters: number | null;
  /** Saved by the retention guard and not drained yet; null without a guard or when unreadable. */
  readonly saved: SavedEventsView | null;
  /** Store reachability as seen by this read (G6: an outage is surfaced, not hidden). */
  readonly store: { readonly ok: boolean; readonly error?: string };
  /** Held batches and re-runs per partition on this instance (outage or stuck); null without processing. */
  readonly progress: ProgressSnapshot | null;
  readonly problems: readonly string[];
}

const HISTORY_FOR_STATUS = 20;

/**
 * Reads every part independently: one unreachable dependency (store, ARM, queue, durable API) leaves
 * its fields null and a line in `problems`, and the rest is still shown.
 */
export async function readOperatorStatus(
  deps: OperatorDeps,
  context: InvocationContext,
): Promise<OperatorStatus> {
  const at = deps.clock.now();
  const problems: string[] = [];
  const attempt = async <T>(what: string, read: () => Promise<T>): Promise<T | null> => {
    try {
      return await read();
    } catch (error) {
      problems.push(`${what}: ${ensureError(error).message}`);
      return null;
    }
  };
  // The breaker's state first (its trip names the orchestration; OPEN asks for the oldest held event's
  // age), then every other part at once: a page during an outage waits for the slowest bound, not the sum.
  const breaker = await attempt('breaker store', () => deps.store.getState());
  const tripId = breaker?.tripId;
  const [buckets, trips, triggerDisabled, deadLetters, orchestration, held, maintenance, saved] =
    await Promise.all([
      attempt('failure window', () => deps.store.windowBuckets(at)),
      attempt('trip history', () => deps.store.history(HISTORY_FOR_STATUS)),
      attempt(
        'trigger switch',
        async () => (await isTriggerDisabled(deps.triggerSwitch, deps.functionName)) ?? null,
      ),
      attempt('dead-letter queue', async () => (await deps.deadLetterCount()) ?? null),
      tripId === undefined
        ? null
        : attempt('orchestration', async () => (await deps.orchestration(context).view(tripId)) ?? null),
      // Never throws: an unreadable hub is `known: false` with its reason.
      deps.heldBacklog?.(breaker?.state === 'OPEN') ?? null,
      attempt('maintenance record', () => deps.maintenance.current()),
      deps.savedEvents ? attempt('saved events', deps.savedEvents) : null,
    ]);
  const storeError = problems.find((p) => /^(breaker store|failure window|trip history):/.test(p));
  return {
    functionName: deps.functionName,
    at,
    breaker,
    orchestration,
    buckets,
    failuresInWindow: buckets === null ? null : failuresIn(buckets),
    activeThreshold: breaker?.state === 'HALF_OPEN' ? deps.policy.probationThreshold : deps.policy.threshold,
    trips,
    currentTrip:
      tripId === undefined || trips === null
        ? undefined
        : readableTrips(trips).find((t) => t.tripId === tripId),
    held,
    triggerDisabled,
    maintenance,
    deadLetters,
    saved,
    store: storeError === undefined ? { ok: true } : { ok: false, error: storeError },
    progress: deps.partitionProgress?.() ?? null,
    problems,
  };
}
