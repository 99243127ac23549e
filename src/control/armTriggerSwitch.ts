import type { WebSiteManagementClientOptionalParams } from '@azure/arm-appservice';
import type { TokenCredential } from '@azure/core-auth';

import { httpAttributes, withDependencySpan } from '../kernel/dependencySpan';
import type { Logger } from '../kernel/logger';
import { type ArmTarget, classifyArmError } from './classifyArmError';
import { TriggerSwitchVerificationError } from './errors';
import { disabledSettingName, readSwitch } from './switchReading';
import type { TriggerSwitch } from './triggerSwitch';

export interface ArmTriggerSwitchOptions {
  readonly target: ArmTarget;
  /** Created lazily by the composition root; see `lazyCredential`. */
  readonly credential: TokenCredential;
  readonly logger: Logger;
  /** ARM endpoint; tests point this at a local HTTPS server. */
  readonly endpoint?: string;
  /** Extra trusted CA for that endpoint (tests only); production uses the system store. */
  readonly tls?: ArmTlsSettings;
}

type Settings = Readonly<Record<string, string>>;
/** TLS settings of the Azure pipeline (derived here rather than importing a transitive package). */
export type ArmTlsSettings = NonNullable<WebSiteManagementClientOptionalParams['tlsOptions']>;

/**
 * Switches the trigger through ARM app settings. The PUT replaces the whole set and ARM offers no
 * ETag for it, so: read, merge, write, then read back and compare everything.
 */
export function makeArmTriggerSwitch(options: ArmTriggerSwitchOptions): TriggerSwitch {
  const { target, logger } = options;
  const clientOptions: WebSiteManagementClientOptionalParams = {
    // The orchestration retries the activity with callActivityWithRetry (durable backoff, no worker
    // held while waiting): that is the one retry layer, so the SDK's own retries are off.
    retryOptions: { maxRetries: 0 },
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.tls === undefined ? {} : { tlsOptions: options.tls }),
  };
  // The package is loaded on the first call, not at start: it is about 150 ms of a cold start
  // (docs/benchmarks.md#cold-start), and an instance that never switches the trigger never needs it.
  const connect = () =>
    import('@azure/arm-appservice').then(
      (arm) => new arm.WebSiteManagementClient(options.credential, target.subscriptionId, clientOptions),
    );
  let client: ReturnType<typeof connect> | undefined;
  const webApps = async () => (await (client ??= connect())).webApps;

  // Each ARM call is one HTTP dependency span (the SDK's path, without the subscription's settings).
  const armUrl = `${options.endpoint ?? 'https://management.azure.com'}/subscriptions/${target.subscriptionId}/resourceGroups/${target.resourceGroup}/providers/Microsoft.Web/sites/${target.siteName}/config/appsettings`;
  const span = <T>(method: string, url: string, call: () => Promise<T>) =>
    withDependencySpan(`ARM ${method} app settings`, httpAttributes(method, url), call);

  const list = async (): Promise<Settings> => {
    try {
      const result = await span('POST', `${armUrl}/list`, async () =>
        (await webApps()).listApplicationSettings(target.resourceGroup, target.siteName),
      );
      return result.properties ?? {};
    } catch (error) {
      throw classifyArmError(error, 'read', target);
    }
  };

  const update = async (settings: Settings): Promise<void> => {
    try {
      await span('PUT', armUrl, async () =>
        (await webApps()).updateApplicationSettings(target.resourceGroup, target.siteName, {
          properties: { ...settings },
        }),
      );
    } catch (error) {
      throw classifyArmError(error, 'update', target);
    }
  };

  return {
    async setDisabled(functionName, disabled) {
      const name = disabledSettingName(functionName);
      const value = settingValue(disabled);
      const current = await list();
      const desired = switchedSettings(current, functionName, disabled);
      // Every settings change restarts the app: a retried activity must not restart it again.
      if (desired === undefined) {
        logger.log(`trigger switch: ${name} is already ${value}; nothing to write`);
        return;
      }
      await update(desired);
      const readBack = await list();
      const differing = differingNames(desired, readBack);
      if (differing.length > 0) {
        throw new TriggerSwitchVerificationError(
          `app settings read back after setting ${name}=${value} differ from what was written ` +
            `(${differing.join(', ')}): another writer changed them concurrently; retry re-reads and merges again`,
          differing,
        );
      }
      const removed = Object.keys(current).filter((n) => !(n in desired));
      logger.log(
        `trigger switch: ${name}=${value} written and verified (${Object.keys(desired).length} settings)` +
          (removed.length > 0 ? `; removed the other form(s) of the switch: ${removed.join(', ')}` : ''),
      );
    },

    async readSwitch(functionName) {
      return readSwitch(await list(), functionName);
    },
  };
}

/**
 * Enabling writes "false" rather than removing the setting: the last action of the breaker stays
 * visible in the portal, and status reads both "false" and absent as enabled.
 */
export function settingValue(disabled: boolean): 'true' | 'false' {
  return disabled ? 'true' : 'false';
}

/**
 * The settings after switching, or undefined when nothing needs writing. Disabling leaves a trigger
 * that some form already disables alone; enabling sets the breaker's form to "false" and removes every
 * other form, so no stray `AzureWebJobs_<fn>_Disabled=1` keeps the listener off after a re-enable.
 */
export function switchedSettings(
  current: Settings,
  functionName: string,
  disabled: boolean,
): Settings | undefined {
  const name = disabledSettingName(functionName);
  const reading = readSwitch(current, functionName);
  if (disabled) return reading.disabled ? undefined : { ...current, [name]: 'true' };
  const strays = new Set(reading.forms.filter((n) => n !== name));
  if (strays.size === 0 && current[name] === 'false') return undefined;
  const kept = Object.entries(current).filter(([n]) => !strays.has(n));
  return { ...Object.fromEntries(kept), [name]: 'false' };
}

function differingNames(expected: Settings, actual: Settings): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...names].filter((n) => expected[n] !== actual[n]).sort();
}
