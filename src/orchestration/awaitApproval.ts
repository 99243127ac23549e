import type { DurableOrchestrationContext, Task, TimerTask } from 'durable-functions';

import { type ApprovalEventData, parseApprovalEvent } from './breakerStatus';
import { APPROVAL_EVENT } from './orchestrationIds';

/** A piece of an orchestrator: yields durable tasks, returns T. */
export type Steps<T> = Generator<Task, T, unknown>;

/**
 * A task that runs beside the wait (a webhook delivery and its retries): the wait never waits for it,
 * and `settled` is told when it ends first. One still running when the approval comes is left behind.
 */
export interface SideTask {
  readonly task: Task;
  readonly settled: (task: Task) => void;
}

export interface ApprovalWait {
  readonly tripId: string;
  readonly maxReminders: number;
  readonly reminderMinutes: number;
  /** Sends reminder `n` (1-based); called when its timer wins the race. May hand back side tasks. */
  readonly remind: (n: number) => Steps<readonly SideTask[]>;
  readonly log: (message: string) => void;
  /** Already started when the wait begins (the trip notice's webhook). */
  readonly alongside?: readonly SideTask[];
}

/**
 * Waits for the `Approval` of this trip, racing a reminder timer until the reminders are used up,
 * then silently (no timer at all). Approvals for other trips and malformed events are ignored.
 *
 * One wait task lives until an event reaches it: an event raised while a reminder email is being sent
 * completes that task, and a fresh wait created afterwards would never see it. When the event wins,
 * the reminder timer is cancelled: an uncancelled timer keeps the instance alive until it fires.
 * Side tasks race too, so a webhook receiver that hangs (retried for minutes) never holds an approval
 * back; one ending first only settles and the same timer goes on.
 */
export function* awaitApproval(
  dfx: DurableOrchestrationContext,
  wait: ApprovalWait,
): Steps<ApprovalEventData> {
  const waitStart = dfx.currentUtcDateTime.getTime();
  const reminderMs = wait.reminderMinutes * 60_000;
  let sent = 0;
  let approval = dfx.waitForExternalEvent(APPROVAL_EVENT);
  let reminder: TimerTask | undefined;
  // A scheduled activity or timer is yielded in one race only: yielded again, the extension would
  // schedule it a second time. So a side task races once, right after it starts; one still running
  // after that race is only looked at (never yielded) until it ends.
  let fresh: SideTask[] = [...(wait.alongside ?? [])];
  let running: SideTask[] = [];
  const settleEnded = () => {
    for (const s of running.filter((r) => r.task.isCompleted)) s.settled(s.task);
    running = running.filter((r) => !r.task.isCompleted);
  };
  for (;;) {
    if (!approval.isCompleted) {
      // Due times follow the first wait: an ignored event does not push the next reminder back.
      if (sent < wait.maxReminders)
        reminder ??= dfx.createTimer(new Date(waitStart + (sent + 1) * reminderMs));
      const raced = fresh;
      fresh = [];
      const racing: Task[] = [approval, ...(reminder ? [reminder] : []), ...raced.map((r) => r.task)];
      let winner: unknown = approval;
      if (racing.length === 1) yield approval;
      else winner = yield dfx.Task.any(racing);
      const ended = raced.find((r) => r.task === winner);
      running = [...running, ...raced.filter((r) => r !== ended)];
      if (ended) {
        ended.settled(ended.task);
        // The timer took part in that race: a new one with the same due time races next.
        if (reminder && !reminder.isCompleted) reminder.cancel();
        reminder = undefined;
        continue;
      }
      settleEnded();
      if (winner !== approval && reminder !== undefined) {
        reminder = undefined;
        sent++;
        fresh = [...(yield* wait.remind(sent))];
        continue;
      }
      if (reminder && !reminder.isCompleted) reminder.cancel();
      reminder = undefined;
    }
    settleEnded();
    const data = parseApprovalEvent(approval.result);
    if (data?.tripId === wait.tripId) return data;
    wait.log(`ignored an approval for trip ${data?.tripId ?? '(malformed)'}`);
    approval = dfx.waitForExternalEvent(APPROVAL_EVENT);
  }
}
