import { BREAKER_STATES, type BreakerState, type BreakerStateName } from './breakerStore';
import { BreakerStoreCorruptError } from './errors';

const stateNames: ReadonlySet<string> = new Set(BREAKER_STATES);

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
  // Beyond what a Date holds, every reader that shows the time would throw.
  if (!Number.isFinite(since) || Math.abs(since) > 8.64e15) {
    throw new BreakerStoreCorruptError(
      `stored breaker "since" is not a number: ${JSON.stringify(raw.since)}`,
    );
  }
  const tripId = typeof raw.tripId === 'string' && raw.tripId !== '' ? raw.tripId : undefined;
  return { state: raw.state, tripId, since };
}
