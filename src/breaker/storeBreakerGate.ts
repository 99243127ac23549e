import type { Clock } from '../kernel/clock';
import type { FailureSample } from '../kernel/failureSample';
import type { Logger } from '../kernel/logger';
import type { BreakerGate, GateState, RecordedFailures } from './breakerGate';
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
 * The processing function's breaker gate on the shared store (docs/how-it-works.md#breaker-store). `check`
 * reads the store about once per `stateCacheMs` per instance (concurrent checks share one read; from half the
 * TTL on the read happens in the background, so a batch waits only when the cache has expired);
 * `recordFailures` is one `record` round trip and refreshes the cache. Neither throws: when the store fails,
 * the gate reports closed (processing and dead-lettering go on, G6), tracks the outage and logs it once per
 * interval. HALF_OPEN lets batches through: probation is the store's lower threshold.
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

  const startRefresh = () =>
    (refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    }));

  return {
    check() {
      const age = cached ? clock.now() - cached.at : Number.POSITIVE_INFINITY;
      if (cached && age < deps.stateCacheMs) {
        // Refresh ahead from half the TTL on, in the background: under a steady flow of batches no
        // batch waits for a store read, and the state served is still never older than the TTL (G4).
        if (age >= deps.stateCacheMs / 2) void startRefresh();
        return Promise.resolve(cached.gate);
      }
      return startRefresh();
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
