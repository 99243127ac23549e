import type { TripRecord } from '../breaker/breakerStore';

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

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function toTripView(trip: TripRecord, now: number): TripView {
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
