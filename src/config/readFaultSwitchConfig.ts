import type { FaultSwitchConfig } from './appConfig';
import type { ConfigProblem } from './errors';
import type { SettingValues } from './settingValues';

type FaultSwitchValues = Pick<SettingValues, 'FAULT_SWITCH_ENABLED' | 'FAULT_SWITCH_MAX_MINUTES' | 'SINK'>;

/**
 * The fault switch's settings. It only knows how to take the sample Table sink down: enabled with
 * another sink it would pretend to test something it cannot touch, so that is a start-up error.
 */
export function readFaultSwitchConfig(
  v: FaultSwitchValues,
  problems: ConfigProblem[],
): FaultSwitchConfig | undefined {
  if (v.FAULT_SWITCH_ENABLED === true && v.SINK !== undefined && v.SINK !== 'table')
    problems.push({
      setting: 'FAULT_SWITCH_ENABLED',
      message: `may only be true with the sample sink (SINK=table), not SINK=${v.SINK}`,
    });
  if (v.FAULT_SWITCH_ENABLED === undefined || v.FAULT_SWITCH_MAX_MINUTES === undefined) return undefined;
  return { enabled: v.FAULT_SWITCH_ENABLED, maxMinutes: v.FAULT_SWITCH_MAX_MINUTES };
}
