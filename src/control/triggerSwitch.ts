import type { SwitchReading } from './switchReading';

export type { SwitchReading } from './switchReading';
export { disabledSettingName } from './switchReading';

/**
 * Switches the guarded trigger off and on. In Azure this is the app setting
 * `AzureWebJobs.<FunctionName>.Disabled` written through ARM (read in every form the host accepts:
 * `switchReading.ts`); locally only the soft OPEN state holds the stream.
 */
export interface TriggerSwitch {
  /**
   * Sets the trigger disabled or enabled and verifies it by reading back; throws a typed error
   * otherwise. Enabling removes every other form of the switch in the same write.
   */
  setDisabled(functionName: string, disabled: boolean): Promise<void>;
  /** How the settings stand for the trigger; undefined when this switch cannot tell. */
  readSwitch(functionName: string): Promise<SwitchReading | undefined>;
}

/** Whether the trigger is disabled as far as settings say; undefined when the switch cannot tell. */
export async function isTriggerDisabled(
  triggerSwitch: Pick<TriggerSwitch, 'readSwitch'>,
  functionName: string,
): Promise<boolean | undefined> {
  return (await triggerSwitch.readSwitch(functionName))?.disabled;
}

export type ControlConfig =
  | { readonly mode: 'local' }
  | {
      readonly mode: 'arm';
      readonly subscriptionId: string;
      readonly resourceGroup: string;
      readonly siteName: string;
    };
