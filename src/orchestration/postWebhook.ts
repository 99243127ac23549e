import type { Task } from 'durable-functions';

import { BreakerActivity, type BreakerActivityName } from './activityNames';
import type { Steps } from './awaitApproval';
import type { WebhookOutcome } from './breakerActivities';
import type { BreakerNotice } from './breakerNotice';

/**
 * Posts one notice to the webhook through its activity (retried like the email). A refusal comes back
 * as a value at once; a transient failure only after every retry. Either way it is reported and the
 * orchestration goes on.
 */
export function* postWebhook(
  notice: BreakerNotice,
  call: (name: BreakerActivityName, input?: unknown) => Task,
  report: (message: string) => void,
): Steps<void> {
  try {
    const outcome = (yield call(BreakerActivity.sendWebhook, notice)) as WebhookOutcome;
    if (!outcome.ok) report(outcome.message);
  } catch (error) {
    report(error instanceof Error ? error.message : String(error));
  }
}
