import type { TriggerSwitch } from '../control/triggerSwitch';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import type { Maintenance, MaintenanceRecord } from './maintenance';

/** What the watchdog knows of maintenance this tick: in force, not, or unreadable. */
export type MaintenanceReading =
  | { readonly kind: 'none' }
  | { readonly kind: 'in'; readonly maintenance: Maintenance }
  | { readonly kind: 'unknown'; readonly error: string };

export async function readMaintenance(
  record: Pick<MaintenanceRecord, 'current'> | undefined,
): Promise<MaintenanceReading> {
  if (record === undefined) return { kind: 'none' };
  try {
    const maintenance = await record.current();
    return maintenance === undefined ? { kind: 'none' } : { kind: 'in', maintenance };
  } catch (error) {
    return { kind: 'unknown', error: ensureError(error).message };
  }
}

/**
 * In maintenance the trigger stays off: one found enabled (the disable of the enter failed, a write
 * raced it, a redeploy reset the setting) is disabled again. Returns whether it wrote. Never throws: a
 * failed write is logged and the next tick tries again.
 */
export async function holdForMaintenance(
  triggerSwitch: TriggerSwitch,
  functionName: string,
  maintenance: Maintenance,
  logger: Logger,
): Promise<boolean> {
  try {
    const reading = await triggerSwitch.readSwitch(functionName);
    if (reading?.disabled !== false) return false;
    await triggerSwitch.setDisabled(functionName, true);
    logger.warn(
      `watchdog: in maintenance (entered by ${maintenance.by}: ${maintenance.reason}) but the trigger was ` +
        'enabled: disabled it again',
    );
    return true;
  } catch (error) {
    logger.warn(`watchdog: could not hold the trigger off for maintenance: ${ensureError(error).message}`);
    return false;
  }
}
