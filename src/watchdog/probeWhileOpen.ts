import type { BreakerStore } from '../breaker/breakerStore';
import type { Clock } from '../kernel/clock';
import type { ActivitySink } from '../sinks/activitySink';
import { type DownstreamProbe, nextProbe } from '../sinks/downstreamProbe';
import { runProbe } from '../sinks/runProbe';

export interface ProbeWhileOpenDeps {
  readonly store: Pick<BreakerStore, 'getState' | 'trip' | 'updateTrip'>;
  readonly sink: Pick<ActivitySink, 'probe'>;
  readonly clock: Clock;
  readonly timeoutMs?: number;
}

/**
 * One watchdog tick's probe: while the breaker is OPEN, probe the downstream and record the result on
 * the current trip. CLOSED and HALF_OPEN probe nothing: the trigger's own writes are the probe then.
 */
export async function probeWhileOpen(deps: ProbeWhileOpenDeps): Promise<DownstreamProbe | undefined> {
  const state = await deps.store.getState();
  if (state.state !== 'OPEN' || state.tripId === undefined) return undefined;
  const tripId = state.tripId;
  const outcome = await runProbe(deps.sink, deps.timeoutMs);
  const trip = await deps.store.trip(tripId);
  const probe = nextProbe(trip?.probe, outcome, deps.clock.now(), trip?.openedAt);
  await deps.store.updateTrip(tripId, { probe });
  return probe;
}
