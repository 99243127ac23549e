import type { Task } from 'durable-functions';

import type { BreakerNotice } from '../notify/breakerNotice';
import type { NoticeOutcome } from '../notify/noticeChannel';
import type { BreakerActivityName } from './activityNames';
import type { SideTask } from './awaitApproval';

/**
 * A notice's delivery through its activity (retried like the email), started but not awaited: the
 * approval wait races it (see SideTask), so a receiver that hangs through every retry delays nothing
 * the email carries. A refusal or a transient failure after every retry is reported when it ends.
 */
export function sendBeside(
  activity: BreakerActivityName,
  notice: BreakerNotice,
  call: (name: BreakerActivityName, input?: unknown) => Task,
  report: (message: string) => void,
): SideTask {
  return {
    task: call(activity, notice),
    settled(task) {
      if (task.isFaulted) {
        const error = task.result;
        report(error instanceof Error ? error.message : String(error));
        return;
      }
      const outcome = task.result as NoticeOutcome | undefined;
      if (outcome && !outcome.ok) report(outcome.message);
    },
  };
}
