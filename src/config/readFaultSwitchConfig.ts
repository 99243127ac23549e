import type { FaultSwitchConfig } from './appConfig';
import type { ConfigProblem } from './errors';
import type { SettingValues } from './settingValues';

type FaultSwitchValues = Pick<
  SettingValues,
  'FAULT_SWITCH_ENABLED' | 'FAULT_SWITCH_MAX_MINUTES' | 'SINK' | 'BREAKWATER_VERIFY_ALLOWED'
>;

/**
 * The fault switch's settings. It only knows how to take the sample Table sink down: enabled with
 * another sink it would pretend to test something it cannot touch, so that is a start-up error. Nor does it
 * turn on where the deployment has not opted in to verify runs (BREAKWATER_VERIFY_ALLOWED): a setting
 * copied to production by mistake stops the app at start rather than expose the endpoint.
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
  if (v.FAULT_SWITCH_ENABLED === true && v.BREAKWATER_VERIFY_ALLOWED !== true)
    problems.push({
      setting: 'FAULT_SWITCH_ENABLED',
      message: 'may only be true on a sandbox opted in to verify runs (BREAKWATER_VERIFY_ALLOWED=true)',
    });
  if (v.FAULT_SWITCH_ENABLED === undefined || v.FAULT_SWITCH_MAX_MINUTES === undefined) return undefined;
  return { enabled: v.FAULT_SWITCH_ENABLED, maxMinutes: v.FAULT_SWITCH_MAX_MINUTES };
}
