/** Activities as the Durable Task extension runs them: invoked through the worker, retried on a timer. */
import { invokeRpc } from '../host/fakeFunctionsCore';
import { type Action, HistoryEventType } from './replay';

/** One activity execution the host performed (for assertions). */
export interface ActivityRun {
  readonly name: string;
  readonly input: unknown;
  readonly attempt: number;
  readonly outcome:
    { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: string };
}

/** An activity the orchestrator scheduled, with its retry policy and which attempt this is. */
export interface ScheduledActivity {
  readonly name: string;
  readonly input: unknown;
  readonly retry: Action['retryOptions'];
  readonly attempt: number;
}

export type ActivityOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly message: string; readonly details: string };

/** Invokes the registered activity function once, as the worker does; a throw is a failed outcome. */
export async function invokeActivity(activity: ScheduledActivity): Promise<ActivityOutcome> {
  try {
    // The library sends a string input already JSON-encoded (the extension passes it on as JSON text).
    const json = typeof activity.input === 'string' ? activity.input : JSON.stringify(activity.input);
    const { response } = await invokeRpc(activity.name, { trigger: { json } });
    const returned = (response.returnValue as { json?: string } | undefined)?.json;
    return { ok: true, result: returned === undefined ? null : JSON.parse(returned) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, details: error instanceof Error ? (error.stack ?? message) : message };
  }
}

/** The extension's retry delay after a failed attempt: first interval × coefficient^(attempt − 1). */
export function retryDelayMs(retry: NonNullable<Action['retryOptions']>, attempt: number): number {
  return retry.firstRetryIntervalInMilliseconds * (retry.backoffCoefficient ?? 1) ** (attempt - 1);
}

/** Whether a retried activity gets another attempt once its retry timer fires. */
export function attemptsLeft(activity: ScheduledActivity): boolean {
  return activity.attempt < (activity.retry?.maxNumberOfAttempts ?? 1);
}

/** The history event an outcome becomes: TaskCompleted with the result, or TaskFailed with the error. */
export function completionOf(taskScheduledId: number, outcome: ActivityOutcome) {
  return outcome.ok
    ? {
        type: HistoryEventType.TaskCompleted,
        extra: { TaskScheduledId: taskScheduledId, Result: JSON.stringify(outcome.result) },
      }
    : {
        type: HistoryEventType.TaskFailed,
        extra: { TaskScheduledId: taskScheduledId, Reason: outcome.message, Details: outcome.details },
      };
}

/** The host's record of one run; `aborted` for a run its worker was killed in. */
export function activityRun(activity: ScheduledActivity, outcome: ActivityOutcome | 'aborted'): ActivityRun {
  const { name, input, attempt } = activity;
  if (outcome === 'aborted') return { name, input, attempt, outcome: { ok: false, error: 'aborted' } };
  return {
    name,
    input,
    attempt,
    outcome: outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: outcome.message },
  };
}
