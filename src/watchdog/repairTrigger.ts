import { breakerOwnDisable } from '../control/switchReading';
import type { TriggerSwitch } from '../control/triggerSwitch';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import type { EmailSender } from '../notify/email/emailSender';
import { triggerRepaired } from '../notify/messages/triggerRepaired';

export interface TriggerRepairDeps {
  readonly triggerSwitch: TriggerSwitch;
  readonly email: EmailSender;
  readonly approvers: readonly string[];
}

/**
 * Enables a trigger that is disabled although its breaker is CLOSED after trip `tripId`: no
 * orchestration, link or reset would switch it on again. Returns whether it did. The email goes out
 * once per repair: afterwards the trigger is enabled and the next tick finds nothing to do. With no
 * trip id (the store knows no trip), only forms the breaker never writes are repaired.
 */
export async function repairTrigger(
  deps: TriggerRepairDeps,
  functionName: string,
  tripId: string | undefined,
  now: number,
  logger: Logger,
): Promise<boolean> {
  // Undefined: this switch cannot tell (local mode, where nothing is ever written).
  const reading = await deps.triggerSwitch.readSwitch(functionName);
  if (reading?.disabled !== true) return false;
  // The breaker's own disable with no trip known may be a forgotten trip's: its link lifts it (G5).
  if (tripId === undefined && reading.disabledBy.includes(breakerOwnDisable(functionName))) return false;
  // Enabling removes every other form too: a stray one would keep the listener off.
  await deps.triggerSwitch.setDisabled(functionName, false);
  const disabledBy = reading.disabledBy;
  logger.warn(
    `watchdog: the breaker is CLOSED but the trigger was disabled (${disabledBy.join(', ')}): enabled it ` +
      `(${tripId === undefined ? 'the store knows no trip' : `trip ${tripId}`}); a late disable after a forced reset, or a setting someone else wrote, leaves this state`,
  );
  try {
    await deps.email.send(
      triggerRepaired({ to: deps.approvers, functionName, tripId, repairedAt: now, disabledBy }),
    );
  } catch (error) {
    logger.warn(`watchdog: could not email the repair: ${ensureError(error).message}`);
  }
  return true;
}
