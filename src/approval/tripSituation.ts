import { failuresIn } from '../breaker/breakerPolicy';
import { type BreakerState, type BreakerStore, type TripRecord } from '../breaker/breakerStore';
import type { OrchestrationControl, OrchestrationView } from '../orchestration/orchestrationControl';

/** Everything the approval page shows and judges about one trip, read without changing anything. */
export interface TripSituation {
  readonly state: BreakerState;
  readonly trip: TripRecord | undefined;
  readonly failuresInWindow: number;
  readonly deadLetters: number | undefined;
  readonly orchestration: OrchestrationView | undefined;
}

export type SituationStore = Pick<BreakerStore, 'getState' | 'trip' | 'windowBuckets'>;

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
  const [state, trip, buckets, deadLetters, orchestration] = await Promise.all([
    deps.store.getState(),
    // An unreadable record of this trip reads as none: never a reason to refuse the approval.
    deps.store.trip(tripId),
    deps.store.windowBuckets(now),
    // Counts are informative only: a queue hiccup must not block an approval.
    deps.deadLetterCount().catch(() => undefined),
    deps.orchestration.view(tripId),
  ]);
  return {
    state,
    trip,
    failuresInWindow: failuresIn(buckets),
    deadLetters,
    orchestration,
  };
}
