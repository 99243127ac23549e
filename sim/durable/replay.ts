/**
 * The durable-functions replay engine driven once over a history, as the Durable Task extension drives
 * it through the worker; the history and action shapes it reads and writes. DurableHost builds on it.
 */
import { invokeRpc, type LogLine } from '../host/fakeFunctionsCore';

/** History event type numbers of the Durable Task Framework (kept here: the library has no typings for them). */
export enum HistoryEventType {
  ExecutionStarted = 0,
  TaskScheduled = 4,
  TaskCompleted = 5,
  TaskFailed = 6,
  TimerCreated = 10,
  TimerFired = 11,
  OrchestratorStarted = 12,
  OrchestratorCompleted = 13,
  EventRaised = 15,
}

/** Action type numbers the orchestrator returns. */
export enum ActionType {
  CallActivity = 0,
  CallActivityWithRetry = 1,
  CreateTimer = 5,
  WaitForExternalEvent = 6,
  WhenAny = 11,
  WhenAll = 12,
}

export interface HistoryEvent {
  readonly EventType: HistoryEventType;
  readonly EventId: number;
  readonly IsPlayed: boolean;
  readonly Timestamp: string;
  readonly [key: string]: unknown;
}

export interface Action {
  readonly actionType: ActionType;
  readonly functionName?: string;
  readonly input?: unknown;
  readonly fireAt?: string;
  readonly isCanceled?: boolean;
  readonly externalEventName?: string;
  readonly retryOptions?: {
    readonly firstRetryIntervalInMilliseconds: number;
    readonly maxNumberOfAttempts: number;
    readonly backoffCoefficient?: number;
  };
  readonly compoundActions?: readonly Action[];
}

export interface OrchestratorState {
  readonly isDone: boolean;
  readonly actions: readonly (readonly Action[])[];
  readonly output?: unknown;
  readonly customStatus?: unknown;
  readonly error?: string;
}

const schemaPayload = {
  isReplaying: false,
  parentInstanceId: null,
  upperSchemaVersion: 1,
  upperSchemaVersionNew: 3,
  longRunningTimerIntervalDuration: '3.00:00:00',
  maximumShortTimerDuration: '6.00:00:00',
  defaultHttpAsyncRequestSleepTimeMillseconds: 30000,
};

/** Replays an orchestrator over a history once, through the library's invocation model. */
export async function replay(
  orchestrator: string,
  instanceId: string,
  history: readonly HistoryEvent[],
  input: unknown,
): Promise<{ state: OrchestratorState; logs: LogLine[]; failure?: string }> {
  const payload = { history, input, instanceId, ...schemaPayload };
  try {
    const { response, logs } = await invokeRpc(orchestrator, { trigger: { json: JSON.stringify(payload) } });
    const returned = (response.returnValue as { json?: string } | undefined)?.json;
    if (returned === undefined) throw new Error('the orchestrator returned nothing');
    return { state: JSON.parse(returned) as OrchestratorState, logs };
  } catch (error) {
    // A failed orchestration throws with its state after the marker, as the extension reads it.
    const message = error instanceof Error ? error.message : String(error);
    const at = message.indexOf('$OutOfProcData$:');
    if (at < 0) throw error;
    const state = JSON.parse(message.slice(at + '$OutOfProcData$:'.length)) as OrchestratorState;
    return { state, logs: [], failure: state.error ?? message };
  }
}

/** The leaves of an action list that the extension schedules (activities, timers), in order. */
export function scheduledLeaves(state: OrchestratorState): Action[] {
  const out: Action[] = [];
  const walk = (a: Action) => {
    if (a.compoundActions) a.compoundActions.forEach(walk);
    else if (a.actionType !== ActionType.WaitForExternalEvent) out.push(a);
  };
  state.actions.flat().forEach(walk);
  return out;
}

/** A history event as the extension writes it (EventId -1: only scheduling events carry their own). */
export function historyEvent(
  type: HistoryEventType,
  at: number,
  extra: Record<string, unknown>,
): HistoryEvent {
  return { EventType: type, EventId: -1, IsPlayed: false, Timestamp: new Date(at).toISOString(), ...extra };
}

/**
 * Every replay must schedule what the earlier episodes scheduled, in the same order (the extension
 * would otherwise match completions to the wrong tasks). Cancellation may change; nothing else may.
 * Returns what this replay scheduled, to check the next one against.
 */
export function checkSameSchedule(before: readonly string[], leaves: readonly Action[]): string[] {
  const shape = (a: Action) =>
    JSON.stringify([a.actionType, a.functionName, a.fireAt, a.input, a.retryOptions?.maxNumberOfAttempts]);
  const now = leaves.slice(0, before.length).map(shape);
  if (now.length < before.length || now.some((s, i) => s !== before[i]))
    throw new Error(
      `non-deterministic replay: scheduled ${now.join(', ')} where the history has ${before.join(', ')}`,
    );
  return leaves.map(shape);
}
