import type { FailureSample } from '../kernel/failureSample';
import type { DownstreamProbe } from '../sinks/downstreamProbe';

/**
 * The shared failure window and breaker state (docs/how-it-works.md#breaker-store). Every adapter
 * (Redis, Table) passes one contract test suite. All times are milliseconds since the epoch.
 */
/** The breaker's states (the one list; the Redis scripts spell them out in Lua). */
export const BREAKER_STATES = ['CLOSED', 'OPEN', 'HALF_OPEN'] as const;
export type BreakerStateName = (typeof BREAKER_STATES)[number];

export interface BreakerState {
  readonly state: BreakerStateName;
  /** Id of the current episode; undefined only while CLOSED with no trip ever recorded. */
  readonly tripId: string | undefined;
  /** When the state last changed. */
  readonly since: number;
}

export interface RecordResult {
  readonly failuresInWindow: number;
  readonly state: BreakerStateName;
  /** True for exactly one caller per episode: the one whose record made CLOSED/HALF_OPEN → OPEN. */
  readonly tripped: boolean;
  readonly tripId: string | undefined;
}

export type TripCause = 'threshold' | 'probation' | 'manual';

/** One episode of the breaker, for the audit trail, status page and emails. */
export interface TripRecord {
  readonly tripId: string;
  readonly cause: TripCause;
  readonly openedAt: number;
  readonly failuresInWindow: number;
  /** A few recent failures, newest last. */
  readonly sample: readonly FailureSample[];
  readonly reason?: string;
  readonly approvedAt?: number;
  readonly approvedBy?: string;
  readonly resumedAt?: number;
  readonly closedAt?: number;
  /** The latest downstream health probe while OPEN (the watchdog's). */
  readonly probe?: DownstreamProbe;
}

/**
 * A stored trip record that does not read as one (not JSON, a timestamp out of range, a missing
 * field). Shown as unreadable; it never blocks the read paths or the current trip.
 */
export interface UnreadableTrip {
  /** Why it does not read, for the status page (bounded). */
  readonly unreadable: string;
  /** The trip id, when the record still names one. */
  readonly tripId: string | undefined;
}

/** What the history holds: readable trips and the records that are not. */
export type TripEntry = TripRecord | UnreadableTrip;

export const isReadableTrip = (entry: TripEntry): entry is TripRecord => !('unreadable' in entry);

/** The readable trips of a history, in order. */
export const readableTrips = (entries: readonly TripEntry[]): TripRecord[] => entries.filter(isReadableTrip);

export interface WindowBucket {
  /** Bucket start time. */
  readonly start: number;
  readonly failures: number;
}

export interface BreakerStore {
  /**
   * Adds `failures` to the bucket of `now`, sums the window and, when the sum exceeds the threshold
   * of the current state (CLOSED: threshold; HALF_OPEN: probation threshold), moves to OPEN with a new
   * trip id atomically. One round trip.
   */
  record(failures: readonly FailureSample[], now: number): Promise<RecordResult>;
  getState(): Promise<BreakerState>;
  /**
   * Compare-and-set: moves `from` → `to` only if the current state is `from` and its trip id is
   * `tripId`. Returns false (and changes nothing) otherwise. Opening from CLOSED by hand uses
   * `openManually` instead, which creates the trip id.
   */
  transition(
    from: BreakerStateName,
    to: BreakerStateName,
    tripId: string | undefined,
    now: number,
  ): Promise<boolean>;
  /** Manual trip: CLOSED/HALF_OPEN → OPEN with a new trip id; undefined when already OPEN. */
  openManually(reason: string, now: number): Promise<string | undefined>;
  /** Empties the failure window (before the listener starts again, G5). */
  resetWindow(): Promise<void>;
  /** Failures per bucket over the window ending at `now` (oldest first), for the dashboard. */
  windowBuckets(now: number): Promise<readonly WindowBucket[]>;
  /** Most recent trips first, bounded; a record that does not parse comes back as UnreadableTrip. */
  history(limit: number): Promise<readonly TripEntry[]>;
  /** One trip's record; undefined when the store has no readable record of it. */
  trip(tripId: string): Promise<TripRecord | undefined>;
  /** Adds approval/resume/close facts to a trip's record. */
  updateTrip(tripId: string, patch: Partial<Omit<TripRecord, 'tripId'>>): Promise<void>;
  close(): Promise<void>;
}
