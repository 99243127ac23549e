import type { TriggerSwitch } from './triggerSwitch';
import { isTriggerSwitchError } from './triggerSwitchErrors';

/** What switching the trigger achieved, as a serialisable value for activities, status and emails. */
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

/** The outcome to report once every retry of a retryable failure is spent. */
export function failedOutcome(disabled: boolean, error: unknown): TriggerSwitchOutcome {
  const message = error instanceof Error ? error.message : String(error);
  const code = isTriggerSwitchError(error) ? error.code : 'TRIGGER_SWITCH_UNKNOWN';
  return { kind: 'failed', disabled, code, retryable: true, message };
}
