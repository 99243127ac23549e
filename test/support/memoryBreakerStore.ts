import { assertAllowedTransition } from '../../src/breaker/allowedTransitions';
import { type BreakerPolicy, failuresIn, tripCause, windowOf } from '../../src/breaker/breakerPolicy';
import type {
  BreakerState,
  BreakerStateName,
  BreakerStore,
  RecordResult,
  TripRecord,
} from '../../src/breaker/breakerStore';
import { type FailureSample, sampleOf } from '../../src/kernel/failureSample';

export interface MemoryBreakerStore extends BreakerStore {
  /** Sets the state directly (test arrangement). */
  force(state: BreakerState): void;
  /** Adds a trip record directly (test arrangement). */
  addTrip(trip: TripRecord): void;
  readonly trips: TripRecord[];
  /** Makes every call reject, as during a store outage. */
  failWith(error: Error | undefined): void;
}

/** What stores opened on one breaker name share: the state, the window and the trips. */
export interface MemoryBreaker {
  state: BreakerState;
  readonly counts: Map<number, number>;
  readonly trips: TripRecord[];
  /** Trip ids are `trip-<n>`, counted per breaker, so tests can name them. */
  opened: number;
}

/**
 * An in-memory breaker store for handler tests: the port's semantics (threshold trip, CAS
 * transitions, manual trips, buckets, bounded history) without Redis or Table. It passes the same
 * contract suite as the real adapters (test/breaker/memoryBreakerStore.test.ts); `shared` lets
 * several stores act on one breaker, as instances do.
 */
export function memoryBreakerStore(
  options: Omit<BreakerPolicy, 'historyLimit'> & { readonly historyLimit?: number },
  shared: MemoryBreaker = newMemoryBreaker(),
): MemoryBreakerStore {
  const policy: BreakerPolicy = { historyLimit: 50, ...options };
  let failure: Error | undefined;
  const { counts, trips } = shared;
  const guard = () => (failure ? Promise.reject(failure) : Promise.resolve());
  const bucketOf = (t: number) => Math.floor(t / policy.bucketMs);
  const windowBuckets = (now: number) => windowOf(policy, now, counts);
  const open = (
    cause: TripRecord['cause'],
    now: number,
    failures: readonly FailureSample[],
    reason?: string,
  ) => {
    const tripId = `trip-${++shared.opened}`;
    shared.state = { state: 'OPEN', tripId, since: now };
    trips.unshift({
      tripId,
      cause,
      openedAt: now,
      failuresInWindow: failuresIn(windowBuckets(now)),
      sample: sampleOf(failures),
      ...(reason === undefined ? {} : { reason }),
    });
    trips.splice(policy.historyLimit);
    return tripId;
  };
  return {
    trips,
    force: (s) => {
      shared.state = s;
    },
    addTrip: (t) => trips.unshift(t),
    failWith: (e) => {
      failure = e;
    },
    async record(samples: readonly FailureSample[], now: number): Promise<RecordResult> {
      await guard();
      const b = bucketOf(now);
      if (samples.length > 0) counts.set(b, (counts.get(b) ?? 0) + samples.length);
      for (const k of counts.keys()) if (k <= b - windowBuckets(now).length) counts.delete(k);
      const sum = failuresIn(windowBuckets(now));
      const { state } = shared;
      const cause = tripCause(policy, state.state, sum);
      if (cause !== undefined) {
        const tripId = open(cause, now, samples);
        return { failuresInWindow: sum, state: 'OPEN', tripped: true, tripId };
      }
      return { failuresInWindow: sum, state: state.state, tripped: false, tripId: state.tripId };
    },
    async getState() {
      await guard();
      return shared.state;
    },
    async transition(from: BreakerStateName, to: BreakerStateName, tripId: string | undefined, now: number) {
      assertAllowedTransition(from, to);
      await guard();
      if (shared.state.state !== from || shared.state.tripId !== tripId) return false;
      shared.state = { state: to, tripId, since: now };
      return true;
    },
    async openManually(reason: string, now: number) {
      await guard();
      if (shared.state.state === 'OPEN') return undefined;
      return open('manual', now, [], reason);
    },
    async resetWindow() {
      await guard();
      counts.clear();
    },
    async windowBuckets(now: number) {
      await guard();
      return windowBuckets(now);
    },
    async history(limit: number) {
      await guard();
      return trips.slice(0, limit);
    },
    async trip(tripId: string) {
      await guard();
      return trips.find((t) => t.tripId === tripId);
    },
    async updateTrip(tripId, patch) {
      await guard();
      const i = trips.findIndex((t) => t.tripId === tripId);
      const existing = trips[i];
      if (existing) trips[i] = { ...existing, ...patch };
    },
    close: () => Promise.resolve(),
  };
}

export const newMemoryBreaker = (): MemoryBreaker => ({
  state: { state: 'CLOSED', tripId: undefined, since: 0 },
  counts: new Map(),
  trips: [],
  opened: 0,
});
