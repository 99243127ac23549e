/**
 * A small test "durable host": drives the REAL durable-functions replay engine the way the Durable
 * Task extension does. Each episode appends OrchestratorStarted + new events to the history, replays
 * the registered orchestrator from the start (through the library's invocation model, like the worker),
 * reads the actions it has not seen yet, schedules them (TaskScheduled / TimerCreated), and runs the
 * scheduled activities by invoking their registered functions. Timers fire from a controllable clock;
 * raised events are delivered in the order the test raises them.
 *
 * Ids follow the extension: one sequence number per scheduled activity or timer (cancelled timers
 * included), and per retry two more (the retry timer, then the rescheduled activity).
 */
import type { LogLine } from '../host/fakeFunctionsCore';
import { readDefaultOrchestrationVersion } from '../host/hostConfig';
import {
  type ActivityRun,
  activityRun,
  completionOf,
  invokeActivity,
  retryDelayMs,
  type ScheduledActivity,
} from './durableActivities';
import type { DurableHostOptions, Runtime } from './durableHostOptions';
import { DurableTimers } from './durableTimers';
import {
  ActionType,
  checkSameSchedule,
  type HistoryEvent,
  historyEvent,
  HistoryEventType,
  type OrchestratorState,
  replay,
  scheduledLeaves,
} from './replay';

export type { DurableHostOptions, Runtime } from './durableHostOptions';

/** A scheduled activity waiting for the worker; `notBefore`: a killed run's message is invisible until then. */
interface QueuedActivity {
  readonly id: number;
  readonly activity: ScheduledActivity;
  readonly notBefore?: number;
}

export class DurableHost {
  readonly history: HistoryEvent[] = [];
  readonly activityRuns: ActivityRun[] = [];
  readonly logs: LogLine[] = [];
  /** Every action list the orchestrator returned, one per episode. */
  readonly episodes: OrchestratorState[] = [];
  runtimeStatus: Runtime = 'Running';
  output: unknown;
  failure: string | undefined;
  customStatus: unknown;
  private nowMs: number;
  private nextId = 0;
  private seenLeaves = 0;
  private inbox: HistoryEvent[] = [];
  private readonly timers = new DurableTimers();
  private toRun: QueuedActivity[] = [];
  private started = false;
  /** What earlier episodes scheduled, to check each replay against. */
  private scheduled: string[] = [];

  constructor(readonly options: DurableHostOptions) {
    this.nowMs = options.startAt;
  }

  /** The host's clock, to inject into activities' dependencies. */
  readonly clock = { now: () => this.nowMs };
  get now(): number {
    return this.nowMs;
  }

  /** Timers not fired yet (cancelled ones included, as in the extension); `dueAt` is when each completes. */
  get pendingTimers(): readonly { id: number; fireAt: number; dueAt: number }[] {
    return this.timers.pending;
  }

  /** Ends the instance as the extension's terminate does: nothing of it runs again. */
  terminate(reason: string): void {
    if (this.runtimeStatus !== 'Running') return;
    this.runtimeStatus = 'Terminated';
    this.output = reason;
  }

  /** Queues an external event; it is delivered in the next episode. */
  raiseEvent(name: string, data: unknown): void {
    if (this.runtimeStatus !== 'Running') return; // like the extension: no effect on a finished instance
    this.inbox.push(this.event(HistoryEventType.EventRaised, { Name: name, Input: JSON.stringify(data) }));
  }

  /** Moves the clock; timers due by then fire (in fire order) in the next episode. */
  advance(ms: number): void {
    this.nowMs += Math.max(0, ms);
    this.fireDueTimers();
  }

  /** Timers that have completed by now go to the inbox (their TimerFired names the FireAt, not now). */
  private fireDueTimers(): void {
    for (const t of this.timers.fireDue(this.nowMs))
      this.inbox.push(
        this.event(HistoryEventType.TimerFired, { TimerId: t.id, FireAt: new Date(t.fireAt).toISOString() }),
      );
  }

  /** Advances the clock to when the next pending timer completes (and fires it): up to a second before its FireAt. */
  advanceToNextTimer(): void {
    const next = this.timers.next();
    if (next === undefined) throw new Error('no pending timer');
    this.advance(next - this.nowMs);
  }

  /** Runs episodes and activities until the orchestration is done or waits for a timer or an event. */
  async run(maxEpisodes = 200): Promise<void> {
    for (let i = 0; i < maxEpisodes; i++) {
      if (this.runtimeStatus !== 'Running') return;
      if (this.toRun.length > 0) {
        // Activities left by a killed worker run first, before any new episode.
        if ((await this.runActivities()) === 'aborted') return;
        continue;
      }
      if (this.started && this.inbox.length === 0 && !this.timers.hasRescheduled) return;
      await this.episode();
      if ((await this.runActivities()) === 'aborted') return;
    }
    throw new Error(`the orchestration did not settle within ${maxEpisodes} episodes`);
  }

  /** Raises an event and runs until settled. */
  async deliver(name: string, data: unknown): Promise<void> {
    this.raiseEvent(name, data);
    await this.run();
  }

  /** Fires the next timer and runs until settled. */
  async fireNextTimer(): Promise<void> {
    this.advanceToNextTimer();
    await this.run();
  }

  private async episode(): Promise<void> {
    // The extension dispatches to a worker only once its functions are registered.
    await this.options.appReady?.();
    const events: HistoryEvent[] = [this.event(HistoryEventType.OrchestratorStarted, {})];
    if (!this.started) {
      this.started = true;
      events.push(
        this.event(HistoryEventType.ExecutionStarted, {
          Name: this.options.orchestrator,
          Version: this.options.version ?? readDefaultOrchestrationVersion(),
          Input: JSON.stringify(this.options.input),
        }),
      );
    }
    const isTimer = (e: HistoryEvent) => e.EventType === HistoryEventType.TimerFired;
    events.push(
      ...(this.options.timersFirst?.() === true
        ? [...this.inbox.filter(isTimer), ...this.inbox.filter((e) => !isTimer(e))]
        : this.inbox),
    );
    this.inbox = [];
    this.history.push(...events);
    for (const activity of this.timers.takeRescheduled()) this.schedule(activity);

    const { state, logs, failure } = await replay(
      this.options.orchestrator,
      this.options.instanceId,
      this.history,
      this.options.input,
    );
    this.episodes.push(state);
    this.logs.push(...logs);
    if (state.customStatus !== undefined) this.customStatus = state.customStatus;

    const leaves = scheduledLeaves(state);
    this.scheduled = checkSameSchedule(this.scheduled, leaves);
    for (const leaf of leaves.slice(this.seenLeaves)) {
      if (leaf.actionType === ActionType.CreateTimer) {
        const fireAt = Date.parse(leaf.fireAt ?? '');
        const id = this.nextId++;
        this.history.push(this.event(HistoryEventType.TimerCreated, { EventId: id, FireAt: leaf.fireAt }));
        this.timers.add({ id, fireAt }, this.nowMs, this.options.timerSkewMs?.() ?? 0);
      } else if (
        leaf.actionType === ActionType.CallActivity ||
        leaf.actionType === ActionType.CallActivityWithRetry
      ) {
        this.schedule({
          name: leaf.functionName ?? '',
          input: leaf.input,
          retry: leaf.retryOptions,
          attempt: 1,
        });
      } else {
        throw new Error(`the test host does not support action type ${leaf.actionType}`);
      }
    }
    this.seenLeaves = leaves.length;
    this.flushRetryTimers();
    this.history.push(this.event(HistoryEventType.OrchestratorCompleted, {}));
    // A timer due less than a second ahead completes at once (timerDelivery.ts).
    this.fireDueTimers();

    if (failure !== undefined) {
      this.runtimeStatus = 'Failed';
      this.failure = failure;
    } else if (state.isDone) {
      this.runtimeStatus = 'Completed';
      this.output = state.output;
    }
  }

  private schedule(activity: ScheduledActivity): void {
    const id = this.nextId++;
    this.history.push(this.event(HistoryEventType.TaskScheduled, { EventId: id, Name: activity.name }));
    this.toRun.push({ id, activity });
  }

  private async runActivities(): Promise<'done' | 'aborted'> {
    while (this.toRun.length > 0) {
      const next = this.toRun.shift();
      if (next === undefined) break;
      const { id, activity } = next;
      const { worker } = this.options;
      if (worker && next.notBefore !== undefined && worker.now() < next.notBefore) {
        this.toRun.unshift(next);
        return 'aborted';
      }
      const span = worker?.begin();
      if (span === 'down') {
        // The old worker is dead and the new one not up: the message waits in its queue.
        this.toRun.unshift(next);
        return 'aborted';
      }
      const generation = this.options.workerGeneration?.();
      const killed = () =>
        this.options.workerGeneration?.() !== generation ||
        (span !== undefined && worker?.killedDuring(span));
      await this.options.appReady?.();
      const outcome = await invokeActivity(activity);
      if (killed()) return this.abort(next);
      this.activityRuns.push(activityRun(activity, outcome));
      const { type, extra } = completionOf(id, outcome);
      this.inbox.push(this.event(type, extra));
      // The extension's retry: a timer after every failed attempt (the last one too), then reschedule.
      if (!outcome.ok && activity.retry)
        this.timers.queueRetry(this.nowMs + retryDelayMs(activity.retry, activity.attempt), activity);
    }
    return 'done';
  }

  /** A killed activity: recorded as aborted, and queued to run again once the worker is back. */
  private abort(run: QueuedActivity): 'aborted' {
    this.activityRuns.push(activityRun(run.activity, 'aborted'));
    const notBefore = this.options.worker?.redeliverAt();
    this.toRun.unshift({
      id: run.id,
      activity: run.activity,
      ...(notBefore === undefined ? {} : { notBefore }),
    });
    return 'aborted';
  }

  /** The TimerCreated of a retry timer is written in the episode that processed the failure. */
  private flushRetryTimers(): void {
    for (const t of this.timers.takeRetries()) {
      const id = this.nextId++;
      this.history.push(
        this.event(HistoryEventType.TimerCreated, { EventId: id, FireAt: new Date(t.fireAt).toISOString() }),
      );
      this.timers.add({ id, ...t }, this.nowMs);
    }
  }

  private event(type: HistoryEventType, extra: Record<string, unknown>): HistoryEvent {
    return historyEvent(type, this.nowMs, extra);
  }
}
