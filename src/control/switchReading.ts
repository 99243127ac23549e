/**
 * How the host reads the switch of a function (WebJobs `HostListenerFactory.IsDisabled` with
 * `IConfiguration.IsSettingEnabled`): the function is disabled when `AzureWebJobs.<fn>.Disabled` OR
 * `AzureWebJobs_<fn>_Disabled` is "true" or "1", compared ignoring case and untrimmed; setting names
 * are matched ignoring case (configuration keys are). Everything that reads the switch reads it here.
 */
export interface SwitchReading {
  /** Whether the host would leave the function's listener off. */
  readonly disabled: boolean;
  /** `name=value` of every setting that disables the function, as found in the settings. */
  readonly disabledBy: readonly string[];
  /** Every setting name of the switch that is present, whatever its value. */
  readonly forms: readonly string[];
}

/** The form the breaker writes: dotted, and kept ("false") after a re-enable so the portal shows it. */
export function disabledSettingName(functionName: string): string {
  return `AzureWebJobs.${functionName}.Disabled`;
}

/** The `name=value` (as in `SwitchReading.disabledBy`) of the one disable the breaker writes; any other is stray. */
export function breakerOwnDisable(functionName: string): string {
  return `${disabledSettingName(functionName)}=true`;
}

/** Both names the host accepts (names must not contain `-` to work on Linux). */
export function switchSettingNames(functionName: string): readonly [string, string] {
  return [disabledSettingName(functionName), `AzureWebJobs_${functionName}_Disabled`];
}

/** "true" or "1" in any case, nothing else (" true" and "yes" leave the function enabled). */
export function disablesFunction(value: string | undefined): boolean {
  const v = value?.toLowerCase();
  return v === 'true' || v === '1';
}

export function readSwitch(
  settings: Readonly<Record<string, string | undefined>>,
  functionName: string,
): SwitchReading {
  const names = new Set(switchSettingNames(functionName).map((n) => n.toLowerCase()));
  const forms = Object.keys(settings)
    .filter((name) => names.has(name.toLowerCase()))
    .sort();
  const disabledBy = forms.filter((n) => disablesFunction(settings[n])).map((n) => `${n}=${settings[n]}`);
  return { disabled: disabledBy.length > 0, disabledBy, forms };
}

/** The reading of settings that hold only the breaker's own form (undefined: nothing known). */
export function breakerFormReading(
  functionName: string,
  disabled: boolean | undefined,
): SwitchReading | undefined {
  if (disabled === undefined) return undefined;
  return readSwitch({ [disabledSettingName(functionName)]: String(disabled) }, functionName);
}
