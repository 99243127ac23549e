import type { DurableOrchestrationContext, Task } from 'durable-functions';

import { APPROVAL_EVENT } from './orchestrationIds';
import { type ApprovalEventData, parseApprovalEvent } from './breakerStatus';

/** A piece of an orchestrator: yields durable tasks, returns T. */
export type Steps<T> = Generator<Task, T, unknown>;

export interface ApprovalWait {
  readonly tripId: string;
  readonly maxReminders: number;
  readonly reminderMinutes: number;
  /** Sends reminder `n` (1-based); called when its timer wins the race. */
  readonly remind: (n: number) => Steps<void>;
  readonly log: (message: string) => void;
}

/**
 * Waits for the `Approval` of this trip, racing a reminder timer until the reminders are used up,
 * then silently (no timer at all). Approvals for other trips and malformed events are ignored.
 *
 * One wait task lives until an event reaches it: an event raised while a reminder email is being sent
 * completes that task, and a fresh wait created afterwards would never see it. When the event wins,
 * the reminder timer is cancelled: an uncancelled timer keeps the instance alive until it fires.
 */
export function* awaitApproval(
  dfx: DurableOrchestrationContext,
  wait: ApprovalWait,
): Steps<ApprovalEventData> {
  const waitStart = dfx.currentUtcDateTime.getTime();
  const reminderMs = wait.reminderMinutes * 60_000;
  let sent = 0;
  let approval = dfx.waitForExternalEvent(APPROVAL_EVENT);
  for (;;) {
    if (!approval.isCompleted) {
      if (sent < wait.maxReminders) {
        // Due times follow the first wait: an ignored event does not push the next reminder back.
        const reminder = dfx.createTimer(new Date(waitStart + (sent + 1) * reminderMs));
        const winner: unknown = yield dfx.Task.any([approval, reminder]);
        if (winner !== approval) {
          sent++;
          yield* wait.remind(sent);
          continue;
        }
        if (!reminder.isCompleted) reminder.cancel();
      } else {
        yield approval;
      }
    }
    const data = parseApprovalEvent(approval.result);
    if (data?.tripId === wait.tripId) return data;
    wait.log(`ignored an approval for trip ${data?.tripId ?? '(malformed)'}`);
    approval = dfx.waitForExternalEvent(APPROVAL_EVENT);
  }
}
