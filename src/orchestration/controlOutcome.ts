import type { TriggerSwitchOutcome } from '../control/triggerSwitchOutcome';
import type { ControlOutcome } from './breakerStatus';

/** The switch's own outcome as the orchestration reports it (status page, custom status). */
export function toControlOutcome(outcome: TriggerSwitchOutcome): ControlOutcome {
  if (outcome.kind === 'failed')
    return { ok: false, permanent: !outcome.retryable, code: outcome.code, message: outcome.message };
  return { ok: true, soft: outcome.kind === 'soft' };
}

/** Back to the switch's outcome, which the email templates describe. */
export function toSwitchOutcome(outcome: ControlOutcome, disabled: boolean): TriggerSwitchOutcome {
  if (outcome.ok) return { kind: outcome.soft ? 'soft' : 'switched', disabled };
  return {
    kind: 'failed',
    disabled,
    code: outcome.code,
    retryable: !outcome.permanent,
    message: outcome.message,
  };
}
