import { readableTrips } from '../breaker/breakerStore';
import type { BreakerStore } from '../breaker/breakerStore';
import type { ActivitySink } from '../processing/activitySink';
import type { Clock } from '../kernel/clock';
import { type DownstreamProbe, nextProbe } from './downstreamProbe';
import { runProbe } from './runProbe';

export interface ProbeWhileOpenDeps {
  readonly store: Pick<BreakerStore, 'getState' | 'history' | 'updateTrip'>;
  readonly sink: Pick<ActivitySink, 'probe'>;
  readonly clock: Clock;
  readonly timeoutMs?: number;
}

/** How far back the trip record is looked up (the current trip is the newest). */
const TRIP_LOOKUP_LIMIT = 5;

/**
 * One watchdog tick's probe: while the breaker is OPEN, probe the downstream and record the result on
 * the current trip. CLOSED and HALF_OPEN probe nothing: the trigger's own writes are the probe then.
 */
export async function probeWhileOpen(deps: ProbeWhileOpenDeps): Promise<DownstreamProbe | undefined> {
  const state = await deps.store.getState();
  if (state.state !== 'OPEN' || state.tripId === undefined) return undefined;
  const tripId = state.tripId;
  const outcome = await runProbe(deps.sink, deps.timeoutMs);
  const trip = readableTrips(await deps.store.history(TRIP_LOOKUP_LIMIT)).find((t) => t.tripId === tripId);
  const probe = nextProbe(trip?.probe, outcome, deps.clock.now(), trip?.openedAt);
  await deps.store.updateTrip(tripId, { probe });
  return probe;
}
