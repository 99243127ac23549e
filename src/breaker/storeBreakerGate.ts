import type { BreakerGate, FailureSample, GateState, RecordedFailures } from '../processing/breakerGate';
import type { Logger } from '../processing/logger';
import type { Clock } from '../time/clock';
import type { BreakerStore } from './breakerStore';
import { makeStoreHealthTracker, type StoreHealth } from './storeHealth';

export interface StoreBreakerGateDeps {
  readonly store: BreakerStore;
  readonly clock: Clock;
  /** How long one instance trusts a state it read (G4: the stop delay). */
  readonly stateCacheMs: number;
  readonly logger: Logger;
  /** At most one outage log line per interval. */
  readonly outageLogIntervalMs?: number;
}

/** The gate on the shared store, with the store's health for the status page. */
export interface StoreBreakerGate extends BreakerGate {
  health(): StoreHealth;
}

const closed: GateState = { open: false, tripId: undefined };

/**
 * The processing function's breaker gate on the shared store (design section 4). `check` costs a store
 * read at most once per `stateCacheMs` per instance (concurrent checks share it); `recordFailures` is one
 * `record` round trip and refreshes the cache. Neither throws: when the store fails, the gate reports
 * closed (processing and dead-lettering go on, G6), tracks the outage and logs it once per interval.
 * HALF_OPEN lets batches through: probation is the store's lower threshold.
 */
export function makeStoreBreakerGate(deps: StoreBreakerGateDeps): StoreBreakerGate {
  const { store, clock } = deps;
  const tracker = makeStoreHealthTracker(clock, deps.logger, deps.outageLogIntervalMs ?? 60_000);
  let cached: { gate: GateState; at: number } | undefined;
  let refreshing: Promise<GateState> | undefined;

  const remember = (gate: GateState, at: number) => {
    cached = { gate, at };
    return gate;
  };

  const refresh = async (): Promise<GateState> => {
    const at = clock.now();
    try {
      const { state, tripId } = await store.getState();
      tracker.succeeded();
      return remember({ open: state === 'OPEN', tripId }, at);
    } catch (error) {
      tracker.failed('getState', error);
      // Cached too: during an outage each instance tries the store once per TTL, not once per batch.
      return remember(closed, at);
    }
  };

  return {
    check() {
      if (cached && clock.now() - cached.at < deps.stateCacheMs) return Promise.resolve(cached.gate);
      refreshing ??= refresh().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },

    async recordFailures(failures: readonly FailureSample[]): Promise<RecordedFailures> {
      const at = clock.now();
      try {
        const result = await store.record(failures, at);
        tracker.succeeded();
        const gate = remember({ open: result.state === 'OPEN', tripId: result.tripId }, at);
        return { ...gate, tripped: result.tripped, failuresInWindow: result.failuresInWindow };
      } catch (error) {
        tracker.failed('record', error);
        return { ...closed, tripped: false, failuresInWindow: undefined };
      }
    },

    health: () => tracker.health(),
  };
}
