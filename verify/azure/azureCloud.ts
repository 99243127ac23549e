import { boundText } from '../../src/kernel/boundText';
import { AzureSetupError } from './azureSetupError';

/** Where one kind of service lives: `<name><suffix>`, on port 443 in Azure. */
export interface ServiceHosts {
  readonly suffix: string;
  /** Unset in Azure (443); a stand-in's port in tests. */
  readonly port?: number;
}

/** The endpoints the run talks to, and the only host names it accepts for each. */
export interface AzureCloud {
  readonly armEndpoint: string;
  readonly keyVault: ServiceHosts;
  readonly blob: ServiceHosts;
  readonly table: ServiceHosts;
  /** The function app's default host name (from ARM) must end with this. */
  readonly app: ServiceHosts;
}

export const AZURE_PUBLIC_CLOUD: AzureCloud = {
  armEndpoint: 'https://management.azure.com',
  keyVault: { suffix: '.vault.azure.net' },
  blob: { suffix: '.blob.core.windows.net' },
  table: { suffix: '.table.core.windows.net' },
  app: { suffix: '.azurewebsites.net' },
};

/** One DNS label: what a validated resource name or a default host name's first part may be. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * `https://<label><suffix>`, refused unless the built URL's host is exactly that: a second check after
 * the naming rules (azureNames.ts), so a name that slipped through cannot point the run's token
 * elsewhere (`x.evil/`, `x@evil`, `x?` or `x#` would each change the host or cut it).
 */
export function serviceUrl(hosts: ServiceHosts, label: string, what: string): URL {
  const expected = `${label.toLowerCase()}${hosts.suffix}`;
  let url: URL | undefined;
  try {
    url = new URL(`https://${label}${hosts.suffix}${hosts.port === undefined ? '' : `:${hosts.port}`}`);
  } catch {
    url = undefined;
  }
  if (!LABEL.test(label.toLowerCase()) || url?.hostname !== expected || url.username || url.password)
    throw new AzureSetupError(
      `${what}: ${JSON.stringify(boundText(label, 80))} does not make a host ending with ${hosts.suffix}; nothing was contacted`,
    );
  return url;
}

/**
 * The app's URL from the site's `defaultHostName` as ARM reports it: one label (or, on Flex Consumption,
 * `<app>-<hash>.<region>-01`) before the cloud's app suffix, nothing else.
 */
export function appUrl(hosts: ServiceHosts, defaultHostName: unknown, site: string): URL {
  const host = typeof defaultHostName === 'string' ? defaultHostName.toLowerCase() : '';
  const labels = host.endsWith(hosts.suffix) ? host.slice(0, -hosts.suffix.length).split('.') : [];
  if (labels.length === 0 || labels.length > 2 || !labels.every((l) => LABEL.test(l)))
    throw new AzureSetupError(
      `function app ${site}: ARM reports default host name ${JSON.stringify(boundText(defaultHostName, 120))}, not a host ending with ${hosts.suffix}; nothing was changed`,
    );
  const url = new URL(`https://${host}${hosts.port === undefined ? '' : `:${hosts.port}`}`);
  if (url.hostname !== host) throw new AzureSetupError(`function app ${site}: bad default host name ${host}`);
  return url;
}
