import { boundText } from '../../src/kernel/boundText';
import type { AzdValues } from './azdEnvironment';
import { AzureSetupError } from './azureSetupError';

/**
 * Azure's naming rules for what the run builds URLs and ARM paths from
 * (https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules). The azd
 * environment file is text anyone can edit or copy from another environment: a vault "name" such as
 * `host/x?` pasted into `https://${name}.vault.azure.net` would send the operator's Key Vault token to
 * `host`. So every value is checked against its resource's rule before it is used, and each URL's host is
 * checked again once built (azureCloud.ts).
 */
const RULES = {
  AZURE_SUBSCRIPTION_ID: {
    test: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    what: 'a subscription id (a GUID)',
  },
  AZURE_RESOURCE_GROUP: {
    // Letters (Unicode included), digits, underscores, hyphens, periods and parentheses; not ending in a period.
    test: /^[\p{L}\p{N}_.()-]{0,89}[\p{L}\p{N}_()-]$/u,
    what: 'a resource group name (1 to 90 letters, digits, _ - . ( ), not ending with a period)',
  },
  AZURE_FUNCTION_APP_NAME: {
    test: /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,58}[a-zA-Z0-9])$/,
    what: 'a function app name (2 to 60 letters, digits and hyphens, not starting or ending with a hyphen)',
  },
  AZURE_KEY_VAULT_NAME: {
    test: /^(?!.*--)[a-zA-Z][a-zA-Z0-9-]{1,22}[a-zA-Z0-9]$/,
    what: 'a Key Vault name (3 to 24 letters, digits and hyphens, starting with a letter, ending with a letter or digit, no two hyphens in a row)',
  },
  AZURE_STORAGE_ACCOUNT_NAME: {
    test: /^[a-z0-9]{3,24}$/,
    what: 'a storage account name (3 to 24 lowercase letters and digits)',
  },
  EVENTHUB_FULLY_QUALIFIED_NAMESPACE: {
    // The namespace: 6 to 50 letters, digits and hyphens, starting with a letter, ending with a letter or digit.
    test: /^[a-zA-Z][a-zA-Z0-9-]{4,48}[a-zA-Z0-9]\.servicebus\.windows\.net$/,
    what: 'an Event Hubs namespace host (<namespace>.servicebus.windows.net)',
  },
  EVENTHUB_NAME: {
    test: /^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,254}[a-zA-Z0-9])?$/,
    what: 'an event hub name (1 to 256 letters, digits, . _ -, starting and ending with a letter or digit)',
  },
  EVENTHUB_CONSUMER_GROUP: {
    test: /^(?:\$Default|[a-zA-Z0-9](?:[a-zA-Z0-9._-]{0,48}[a-zA-Z0-9])?)$/,
    what: 'a consumer group name ($Default, or 1 to 50 letters, digits, . _ -)',
  },
} as const satisfies Partial<Record<keyof AzdValues, { test: RegExp; what: string }>>;

/** Each value the run builds a URL or an ARM path from, checked; every bad one named in one line. */
export function validateAzdNames(azd: AzdValues, envName: string): void {
  const bad = (Object.keys(RULES) as (keyof typeof RULES)[])
    .filter((key) => !RULES[key].test.test(azd[key]))
    .map((key) => `${key} ${JSON.stringify(boundText(azd[key], 80))} is not ${RULES[key].what}`);
  if (bad.length > 0)
    throw new AzureSetupError(
      `azd environment "${envName}": ${bad.join('; ')}. Nothing was contacted; fix .azure/${envName}/.env (\`azd env refresh\`)`,
    );
}
