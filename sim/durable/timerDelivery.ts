/**
 * When a durable timer completes on the Azure Storage backend. The extension sends the TimerFired
 * message with a queue visibility delay, computed a moment after the episode that created the timer and
 * sent in whole seconds (the fraction is dropped), so the timer completes up to about a second BEFORE
 * its FireAt; a timer due less than a second ahead completes at once. Measured with the real extension
 * (3.19.0) on Azurite: completed 0.6 s and 0.8 s early (sim/durableExtension). Polling makes it late
 * as often; this models the early side, which is the one an orchestrator can get wrong.
 */
export const TIMER_SEND_DELAY_MS = 1;

/** The moment a timer created at `createdAt` (the episode's time) for `fireAt` completes. */
export function timerDueAt(createdAt: number, fireAt: number): number {
  const delay = fireAt - (createdAt + TIMER_SEND_DELAY_MS);
  return createdAt + Math.max(0, Math.floor(delay / 1000) * 1000);
}
