import { isTriggerSwitchError } from './errors';
import type { TriggerSwitch } from './triggerSwitch';

/**
 * What switching the trigger achieved, as a serialisable value: the activity's result, the custom
 * status, the notices (email and webhook). Read a stored one back with parseSwitchOutcome.
 */
export type TriggerSwitchOutcome =
  | { readonly kind: 'switched'; readonly disabled: boolean }
  /** Local mode: nothing was written; the soft OPEN state holds the stream. */
  | { readonly kind: 'soft'; readonly disabled: boolean }
  | {
      readonly kind: 'failed';
      readonly disabled: boolean;
      readonly code: string;
      readonly retryable: boolean;
      readonly message: string;
    };

/**
 * Runs `setDisabled` for an activity. Retryable failures are rethrown so callActivityWithRetry tries
 * again; permanent ones (missing role, wrong app name) come back as a value, because durable retries
 * cannot tell them apart and the operators' email should say what to fix.
 */
export async function setDisabledWithOutcome(
  sw: TriggerSwitch,
  mode: 'arm' | 'local',
  functionName: string,
  disabled: boolean,
): Promise<TriggerSwitchOutcome> {
  try {
    await sw.setDisabled(functionName, disabled);
    return { kind: mode === 'arm' ? 'switched' : 'soft', disabled };
  } catch (error) {
    if (isTriggerSwitchError(error) && !error.retryable)
      return { kind: 'failed', disabled, code: error.code, retryable: false, message: error.message };
    throw error;
  }
}

/** What the orchestrator reports once every attempt of a retryable failure is spent. */
export function failedAfterRetries(
  disabled: boolean,
  attempts: number,
  error: unknown,
): TriggerSwitchOutcome {
  const reason = error instanceof Error ? error.message : String(error);
  const message = `gave up after ${attempts} attempts: ${reason}`;
  return { kind: 'failed', disabled, code: 'RETRIES_EXHAUSTED', retryable: true, message };
}
