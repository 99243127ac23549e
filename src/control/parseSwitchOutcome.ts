import { boundText } from '../kernel/boundText';
import type { TriggerSwitchOutcome } from './triggerSwitchOutcome';

/** The code of a stored outcome that no version of the breaker wrote. */
export const UNREADABLE_SWITCH_OUTCOME = 'SWITCH_OUTCOME_UNREADABLE';

/** How much of an unreadable value its description quotes. */
const DESCRIPTION_BOUND = 200;

/**
 * Reads a switch outcome back from where it was stored (an activity result in the history, a notice
 * input, the custom status). Anything but a TriggerSwitchOutcome (the `{ ok }` shape of builds before
 * 0.4.0 included: orchestration/historyVersion.ts) reads as a permanent failure in the direction the
 * caller asked (`disabled`), so the email and the status page say that the outcome is unknown rather
 * than claim the trigger was switched.
 */
export function parseSwitchOutcome(value: unknown, disabled: boolean): TriggerSwitchOutcome {
  return current(value) ?? unreadable(value, disabled);
}

function current(value: unknown): TriggerSwitchOutcome | undefined {
  if (!isRecord(value) || typeof value.disabled !== 'boolean') return undefined;
  const { kind, disabled, code, retryable, message } = value;
  if (kind === 'switched' || kind === 'soft') return { kind, disabled };
  if (
    kind === 'failed' &&
    typeof code === 'string' &&
    typeof retryable === 'boolean' &&
    typeof message === 'string'
  )
    return { kind, disabled, code, retryable, message };
  return undefined;
}

function unreadable(value: unknown, disabled: boolean): TriggerSwitchOutcome {
  return {
    kind: 'failed',
    disabled,
    code: UNREADABLE_SWITCH_OUTCOME,
    retryable: false,
    message: `the outcome of switching the trigger could not be read: ${boundText(describe(value), DESCRIPTION_BOUND)}`,
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, DESCRIPTION_BOUND * 2));
  try {
    // Undefined for undefined, functions and symbols, although typed as a string.
    const json = JSON.stringify(value) as string | undefined;
    return json ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
