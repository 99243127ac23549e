import type { TripRecord } from '../breaker/breakerStore';

/**
 * One episode of an outage as an operator lives it: the trip, and every probation re-trip that
 * followed it before the breaker closed (each re-trip is a new trip record, but the same incident).
 */
export interface Incident {
  /** Oldest first. */
  readonly trips: readonly TripRecord[];
  readonly openedAt: number;
  /** When the last trip of the incident closed; undefined while it is still going on. */
  readonly closedAt: number | undefined;
}

/**
 * Groups a trip history (newest first, as the store returns it) into incidents, newest first: a trip
 * caused by probation failures continues the incident of the trip before it.
 */
export function groupIncidents(trips: readonly TripRecord[]): Incident[] {
  const groups: TripRecord[][] = [];
  for (const trip of [...trips].reverse()) {
    const current = groups.at(-1);
    if (trip.cause === 'probation' && current !== undefined) current.push(trip);
    else groups.push([trip]);
  }
  return groups.reverse().map((group) => {
    const first = group[0] as TripRecord;
    const last = group[group.length - 1] as TripRecord;
    return { trips: group, openedAt: first.openedAt, closedAt: last.closedAt };
  });
}
