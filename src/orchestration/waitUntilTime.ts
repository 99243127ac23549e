import type { DurableOrchestrationContext } from 'durable-functions';

import type { Steps } from './awaitApproval';

/** Extra waits after a timer that completed early; each is longer than what was left, so one is enough. */
const MAX_EXTRA_WAITS = 3;

/**
 * Waits until the orchestration's time is at or past `deadline`. On the Azure Storage backend a timer
 * can complete up to about a second before its FireAt (the queue's visibility delay is whole seconds),
 * so the time after the timer is checked and what is left waited again, rounded up to whole seconds plus
 * one, so the second wait cannot come back early too. Deterministic: the times come from the history.
 */
export function* waitUntilTime(dfx: DurableOrchestrationContext, deadline: Date): Steps<void> {
  yield dfx.createTimer(deadline);
  for (let i = 0; i < MAX_EXTRA_WAITS; i++) {
    const now = dfx.currentUtcDateTime.getTime();
    const left = deadline.getTime() - now;
    if (left <= 0) return;
    yield dfx.createTimer(new Date(now + (Math.ceil(left / 1000) + 1) * 1000));
  }
}
