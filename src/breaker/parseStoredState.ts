import { BreakerStoreCorruptError } from './breakerErrors';
import type { BreakerState, BreakerStateName, TripRecord } from './breakerStore';

const stateNames: ReadonlySet<string> = new Set<BreakerStateName>(['CLOSED', 'OPEN', 'HALF_OPEN']);

export const isStateName = (value: unknown): value is BreakerStateName =>
  typeof value === 'string' && stateNames.has(value);

/** The state with no row/key yet: CLOSED, never tripped. */
export const initialState: BreakerState = { state: 'CLOSED', tripId: undefined, since: 0 };

/** Validates a stored state; absent fields mean "never written". */
export function parseStoredState(raw: { state: unknown; tripId: unknown; since: unknown }): BreakerState {
  if (raw.state === undefined || raw.state === null || raw.state === '') return initialState;
  if (!isStateName(raw.state)) {
    throw new BreakerStoreCorruptError(
      `stored breaker state is not a known state: ${JSON.stringify(raw.state)}`,
    );
  }
  const since = Number(raw.since ?? 0);
  if (!Number.isFinite(since)) {
    throw new BreakerStoreCorruptError(
      `stored breaker "since" is not a number: ${JSON.stringify(raw.since)}`,
    );
  }
  const tripId = typeof raw.tripId === 'string' && raw.tripId !== '' ? raw.tripId : undefined;
  return { state: raw.state, tripId, since };
}

/** Parses one stored trip record (JSON), checking the fields every reader relies on. */
export function parseTripRecord(json: string): TripRecord {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new BreakerStoreCorruptError(`stored trip record is not JSON: ${json.slice(0, 80)}`);
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as Record<string, unknown>).tripId !== 'string' ||
    typeof (value as Record<string, unknown>).openedAt !== 'number' ||
    !Array.isArray((value as Record<string, unknown>).sample)
  ) {
    throw new BreakerStoreCorruptError(`stored trip record has the wrong shape: ${json.slice(0, 80)}`);
  }
  return value as TripRecord;
}
