import { type WebSiteManagementClientOptionalParams, WebSiteManagementClient } from '@azure/arm-appservice';
import type { TokenCredential } from '@azure/core-auth';

import type { Logger } from '../kernel/logger';
import { type ArmTarget, classifyArmError } from './classifyArmError';
import { disabledSettingName, type TriggerSwitch } from './triggerSwitch';
import { TriggerSwitchVerificationError } from './triggerSwitchErrors';

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
  const client = new WebSiteManagementClient(options.credential, target.subscriptionId, clientOptions);

  const list = async (): Promise<Settings> => {
    try {
      const result = await client.webApps.listApplicationSettings(target.resourceGroup, target.siteName);
      return result.properties ?? {};
    } catch (error) {
      throw classifyArmError(error, 'read', target);
    }
  };

  const update = async (settings: Settings): Promise<void> => {
    try {
      await client.webApps.updateApplicationSettings(target.resourceGroup, target.siteName, {
        properties: { ...settings },
      });
    } catch (error) {
      throw classifyArmError(error, 'update', target);
    }
  };

  return {
    async setDisabled(functionName, disabled) {
      const name = disabledSettingName(functionName);
      const value = settingValue(disabled);
      const current = await list();
      // Every settings change restarts the app: a retried activity must not restart it again.
      if (current[name] === value) {
        logger.log(`trigger switch: ${name} is already ${value}; nothing to write`);
        return;
      }
      const desired: Settings = { ...current, [name]: value };
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
      logger.log(
        `trigger switch: ${name}=${value} written and verified (${Object.keys(desired).length} settings)`,
      );
    },

    async isDisabled(functionName) {
      return isDisabledValue((await list())[disabledSettingName(functionName)]);
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

/** The host treats the setting as a boolean; anything but "true" (any case) leaves the function enabled. */
export function isDisabledValue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

function differingNames(expected: Settings, actual: Settings): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...names].filter((n) => expected[n] !== actual[n]).sort();
}
