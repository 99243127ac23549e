/**
 * Switches the guarded trigger off and on. In Azure this is the app setting
 * `AzureWebJobs.<FunctionName>.Disabled` written through ARM; locally only the soft OPEN state holds
 * the stream.
 */
export interface TriggerSwitch {
  /** Sets the trigger disabled or enabled and verifies it by reading back; throws a typed error otherwise. */
  setDisabled(functionName: string, disabled: boolean): Promise<void>;
  /** Whether the trigger is disabled as far as settings say; undefined when this switch cannot tell. */
  isDisabled(functionName: string): Promise<boolean | undefined>;
}

/** The app setting that disables a function (names must not contain `-` to work on Linux). */
export function disabledSettingName(functionName: string): string {
  return `AzureWebJobs.${functionName}.Disabled`;
}

export type ControlConfig =
  | { readonly mode: 'local' }
  | {
      readonly mode: 'arm';
      readonly subscriptionId: string;
      readonly resourceGroup: string;
      readonly siteName: string;
    };
