import { WebSiteManagementClient } from '@azure/arm-appservice';
import type { TokenCredential } from '@azure/core-auth';

import { boundText } from '../../src/kernel/boundText';
import { appUrl, type AzureCloud } from './azureCloud';
import { AzureSetupError } from './azureSetupError';

/** Each ARM call is bounded (the SDK's own retries included): a hanging ARM cannot hold the cleanup. */
const ARM_CALL_MS = 30_000;

export const firstLine = (error: unknown) =>
  boundText((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '', 200);

/** The function app as ARM has it: its URL (defaultHostName), settings, default host key. */
export function armSite(
  cloud: AzureCloud,
  credential: TokenCredential,
  ids: { readonly subscriptionId: string; readonly resourceGroup: string; readonly site: string },
) {
  const { resourceGroup: rg, site } = ids;
  const arm = new WebSiteManagementClient(credential, ids.subscriptionId, { endpoint: cloud.armEndpoint });
  const bounded = () => ({ abortSignal: AbortSignal.timeout(ARM_CALL_MS) });
  const access = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw new AzureSetupError(
        `cannot ${what} of function app ${site} in ${rg} through ARM (${firstLine(error)}): you need Website Contributor on it`,
      );
    }
  };
  return {
    /** The app's URL as ARM reports it (the site's `defaultHostName`), never the azd file's copy. */
    async url(): Promise<URL> {
      const found = await access('read the site', () => arm.webApps.get(rg, site, bounded()));
      return appUrl(cloud.app, found.defaultHostName, site);
    },
    async settings(): Promise<Record<string, string>> {
      return (await arm.webApps.listApplicationSettings(rg, site, bounded())).properties ?? {};
    },
    async readSettings(): Promise<Record<string, string>> {
      return access('read the app settings', () => this.settings());
    },
    async functionKey(): Promise<string> {
      const keys = await access('read the host keys', () => arm.webApps.listHostKeys(rg, site, bounded()));
      const key = keys.functionKeys?.default;
      if (key === undefined) throw new AzureSetupError(`function app ${site} has no default host key`);
      return key;
    },
    /** One setting set (value) or removed (undefined): a PUT that replaces all, so read, merge, write. */
    async writeSetting(name: string, value: string | undefined): Promise<void> {
      const next = Object.fromEntries(Object.entries(await this.settings()).filter(([k]) => k !== name));
      if (value !== undefined) next[name] = value;
      await arm.webApps.updateApplicationSettings(rg, site, { properties: next }, bounded());
    },
  };
}
