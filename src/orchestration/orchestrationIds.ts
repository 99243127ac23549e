/** Name of the breaker orchestration and its external event; shared by trigger, watchdog and approval HTTP. */
export const BREAKER_ORCHESTRATOR = 'BreakerOrchestrator';
export const APPROVAL_EVENT = 'Approval';

/** One orchestration per trip: its instance id is derived from the trip id (never reused). */
export function breakerInstanceId(tripId: string): string {
  return `breaker-${tripId}`;
}
