import type { Task } from 'durable-functions';

import { BreakerActivity, type BreakerActivityName } from './activityNames';
import type { SideTask, Steps } from './awaitApproval';
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
  const side = webhookBeside(notice, call, report);
  try {
    yield side.task;
  } catch {
    // Reported by settled below, from the task itself.
  }
  side.settled(side.task);
}

/**
 * The same delivery, started but not awaited: the approval wait races it (see SideTask), so a receiver
 * that hangs through every retry delays nothing the email carries.
 */
export function webhookBeside(
  notice: BreakerNotice,
  call: (name: BreakerActivityName, input?: unknown) => Task,
  report: (message: string) => void,
): SideTask {
  return {
    task: call(BreakerActivity.sendWebhook, notice),
    settled(task) {
      if (task.isFaulted) {
        const error = task.result;
        report(error instanceof Error ? error.message : String(error));
        return;
      }
      const outcome = task.result as WebhookOutcome | undefined;
      if (outcome && !outcome.ok) report(outcome.message);
    },
  };
}
