import {
  type BreakerState,
  type BreakerStore,
  readableTrips,
  type TripRecord,
} from '../breaker/breakerStore';
import type { OrchestrationControl, OrchestrationView } from '../orchestration/orchestrationControl';
import { failuresIn } from '../breaker/breakerPolicy';

/** Everything the approval page shows and judges about one trip, read without changing anything. */
export interface TripSituation {
  readonly state: BreakerState;
  readonly trip: TripRecord | undefined;
  readonly failuresInWindow: number;
  readonly deadLetters: number | undefined;
  readonly orchestration: OrchestrationView | undefined;
}

export type SituationStore = Pick<BreakerStore, 'getState' | 'history' | 'windowBuckets'>;

/** How far back the audit trail is searched for the trip a link names. */
const TRIP_LOOKUP_LIMIT = 50;

/** Reads the trip's situation in parallel; store failures propagate (the caller shows a 503 page). */
export async function readTripSituation(
  tripId: string,
  now: number,
  deps: {
    readonly store: SituationStore;
    readonly orchestration: OrchestrationControl;
    readonly deadLetterCount: () => Promise<number | undefined>;
  },
): Promise<TripSituation> {
  const [state, history, buckets, deadLetters, orchestration] = await Promise.all([
    deps.store.getState(),
    deps.store.history(TRIP_LOOKUP_LIMIT),
    deps.store.windowBuckets(now),
    // Counts are informative only: a queue hiccup must not block an approval.
    deps.deadLetterCount().catch(() => undefined),
    deps.orchestration.view(tripId),
  ]);
  return {
    state,
    // Unreadable records of other trips are skipped, never a reason to refuse this one.
    trip: readableTrips(history).find((t) => t.tripId === tripId),
    failuresInWindow: failuresIn(buckets),
    deadLetters,
    orchestration,
  };
}
