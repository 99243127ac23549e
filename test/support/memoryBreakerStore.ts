import type {
  BreakerState,
  BreakerStateName,
  BreakerStore,
  RecordResult,
  TripRecord,
  WindowBucket,
} from '../../src/breaker/breakerStore';
import type { FailureSample } from '../../src/kernel/failureSample';

export interface MemoryBreakerStore extends BreakerStore {
  /** Sets the state directly (test arrangement). */
  force(state: BreakerState): void;
  /** Adds a trip record directly (test arrangement). */
  addTrip(trip: TripRecord): void;
  readonly trips: TripRecord[];
  /** Makes every call reject, as during a store outage. */
  failWith(error: Error | undefined): void;
}

/**
 * An in-memory breaker store for handler tests: the port's semantics (threshold trip, CAS
 * transitions, manual trips, buckets) without Redis or Table. The real adapters have their own
 * contract tests; these tests are about the HTTP surface.
 */
export function memoryBreakerStore(options: {
  threshold: number;
  probationThreshold: number;
  windowMs: number;
  bucketMs: number;
}): MemoryBreakerStore {
  let state: BreakerState = { state: 'CLOSED', tripId: undefined, since: 0 };
  let failure: Error | undefined;
  const buckets = new Map<number, number>();
  const trips: TripRecord[] = [];
  let counter = 0;
  const guard = () => (failure ? Promise.reject(failure) : Promise.resolve());
  const bucketStart = (t: number) => t - (t % options.bucketMs);
  const windowBuckets = (now: number): WindowBucket[] => {
    const last = bucketStart(now);
    const out: WindowBucket[] = [];
    for (let start = last - options.windowMs + options.bucketMs; start <= last; start += options.bucketMs)
      out.push({ start, failures: buckets.get(start) ?? 0 });
    return out;
  };
  const open = (cause: TripRecord['cause'], now: number, failures: number, reason?: string) => {
    const tripId = `trip-${++counter}`;
    state = { state: 'OPEN', tripId, since: now };
    trips.unshift({
      tripId,
      cause,
      openedAt: now,
      failuresInWindow: failures,
      sample: [],
      ...(reason === undefined ? {} : { reason }),
    });
    return tripId;
  };
  return {
    trips,
    force: (s) => {
      state = s;
    },
    addTrip: (t) => trips.unshift(t),
    failWith: (e) => {
      failure = e;
    },
    async record(samples: readonly FailureSample[], now: number): Promise<RecordResult> {
      await guard();
      const b = bucketStart(now);
      buckets.set(b, (buckets.get(b) ?? 0) + samples.length);
      const sum = windowBuckets(now).reduce((s, x) => s + x.failures, 0);
      const limit = state.state === 'HALF_OPEN' ? options.probationThreshold : options.threshold;
      if (state.state !== 'OPEN' && sum > limit) {
        const tripId = open(state.state === 'HALF_OPEN' ? 'probation' : 'threshold', now, sum);
        return { failuresInWindow: sum, state: 'OPEN', tripped: true, tripId };
      }
      return { failuresInWindow: sum, state: state.state, tripped: false, tripId: state.tripId };
    },
    async getState() {
      await guard();
      return state;
    },
    async transition(from: BreakerStateName, to: BreakerStateName, tripId: string | undefined, now: number) {
      await guard();
      if (state.state !== from || state.tripId !== tripId) return false;
      state = { state: to, tripId, since: now };
      return true;
    },
    async openManually(reason: string, now: number) {
      await guard();
      if (state.state === 'OPEN') return undefined;
      return open('manual', now, 0, reason);
    },
    async resetWindow() {
      await guard();
      buckets.clear();
    },
    async windowBuckets(now: number) {
      await guard();
      return windowBuckets(now);
    },
    async history(limit: number) {
      await guard();
      return trips.slice(0, limit);
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
