/** The durable timers of one instance: pending ones (cancelled included, as in the extension) and retries. */
import { attemptsLeft, type ScheduledActivity } from './durableActivities';
import { timerDueAt } from './timerDelivery';

export interface PendingTimer {
  readonly id: number;
  /** The time the orchestrator asked for (the TimerFired event's FireAt). */
  readonly fireAt: number;
  /** When it completes: up to a second before fireAt (timerDelivery.ts). */
  readonly dueAt: number;
  /** For a retry timer: the activity to schedule again when it fires. */
  readonly retryOf?: ScheduledActivity;
}

export class DurableTimers {
  private timers: PendingTimer[] = [];
  /** Retry timers to create in the coming episode (the one that processes the failure). */
  private retries: { fireAt: number; retryOf: ScheduledActivity }[] = [];

  get pending(): readonly PendingTimer[] {
    return this.timers;
  }

  /** A timer created by the episode at `createdAt`. */
  /**
   * `lateMs`: how much later than the extension's send delay the timer completes (queue polling, a host
   * scaled to zero); the early side is the send delay's whole seconds (timerDelivery.ts).
   */
  add(timer: Omit<PendingTimer, 'dueAt'>, createdAt: number, lateMs = 0): void {
    this.timers.push({ ...timer, dueAt: timerDueAt(createdAt, timer.fireAt) + Math.max(0, lateMs) });
  }

  /** Retried activities to schedule again: their retry timer fired and attempts are left. */
  private rescheduled: ScheduledActivity[] = [];

  /** Removes and returns the timers due by `now`, in the order they complete; retries among them are rescheduled. */
  fireDue(now: number): PendingTimer[] {
    const due = this.timers.filter((t) => t.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt);
    this.timers = this.timers.filter((t) => t.dueAt > now);
    for (const { retryOf } of due)
      if (retryOf && attemptsLeft(retryOf))
        this.rescheduled.push({ ...retryOf, attempt: retryOf.attempt + 1 });
    return due;
  }

  get hasRescheduled(): boolean {
    return this.rescheduled.length > 0;
  }

  /** Rescheduling a retried activity is the extension's decision, taken in the episode its timer fired. */
  takeRescheduled(): ScheduledActivity[] {
    return this.rescheduled.splice(0);
  }

  /** When the next pending timer completes; undefined with none. */
  next(): number | undefined {
    const next = Math.min(...this.timers.map((t) => t.dueAt));
    return Number.isFinite(next) ? next : undefined;
  }

  queueRetry(fireAt: number, retryOf: ScheduledActivity): void {
    this.retries.push({ fireAt, retryOf });
  }

  /** The retry timers queued since the last episode, to be written (TimerCreated) in this one. */
  takeRetries(): { fireAt: number; retryOf: ScheduledActivity }[] {
    return this.retries.splice(0);
  }
}
