import type { BreakerStateName } from './breakerStore';
import { InvalidTransitionError } from './errors';

/**
 * Transitions `transition()` may make. Entering OPEN always starts a new episode (a new trip id), so it
 * goes through `record` or `openManually`, never through a compare-and-set on an existing id.
 */
const allowed: ReadonlySet<string> = new Set(['OPEN>HALF_OPEN', 'HALF_OPEN>CLOSED', 'OPEN>CLOSED']);

export function assertAllowedTransition(from: BreakerStateName, to: BreakerStateName): void {
  if (!allowed.has(`${from}>${to}`)) {
    throw new InvalidTransitionError(
      `${from} → ${to} is not a compare-and-set transition (use record or openManually to open)`,
    );
  }
}
