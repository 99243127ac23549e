import { isReadableTrip, type TripEntry, type TripRecord } from '../breaker/breakerStore';

/** A trip record for JSON: ISO times and the durations an operator asks about. */
export interface TripView {
  readonly tripId: string;
  readonly cause: TripRecord['cause'];
  readonly reason: string | null;
  readonly openedAt: string;
  readonly failuresInWindow: number;
  readonly approvedAt: string | null;
  readonly approvedBy: string | null;
  readonly resumedAt: string | null;
  readonly closedAt: string | null;
  /** Trip to approval: how long the stream was held waiting for a person. */
  readonly waitedForApprovalMs: number | null;
  /** Trip to close (or to now while still open). */
  readonly durationMs: number;
  readonly sample: TripRecord['sample'];
}

/** A stored record that does not read: what is known of it, and why. */
export interface UnreadableTripView {
  readonly tripId: string | null;
  readonly unreadable: string;
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function toTripView(entry: TripEntry, now: number): TripView | UnreadableTripView {
  if (!isReadableTrip(entry)) return { tripId: entry.tripId ?? null, unreadable: entry.unreadable };
  return readableTripView(entry, now);
}

function readableTripView(trip: TripRecord, now: number): TripView {
  return {
    tripId: trip.tripId,
    cause: trip.cause,
    reason: trip.reason ?? null,
    openedAt: new Date(trip.openedAt).toISOString(),
    failuresInWindow: trip.failuresInWindow,
    approvedAt: iso(trip.approvedAt),
    approvedBy: trip.approvedBy ?? null,
    resumedAt: iso(trip.resumedAt),
    closedAt: iso(trip.closedAt),
    waitedForApprovalMs: trip.approvedAt === undefined ? null : trip.approvedAt - trip.openedAt,
    durationMs: (trip.closedAt ?? now) - trip.openedAt,
    sample: trip.sample,
  };
}
