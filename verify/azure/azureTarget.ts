import { setTimeout as sleep } from 'node:timers/promises';

import { WebSiteManagementClient } from '@azure/arm-appservice';
import type { TokenCredential } from '@azure/core-auth';
import { TableClient } from '@azure/data-tables';
import { EventHubProducerClient } from '@azure/event-hubs';
import { BlobServiceClient } from '@azure/storage-blob';

import { CHECKPOINT_CONTAINER, checkpointPrefix } from '../../src/hub/checkpoints';
import { GUARDED_FUNCTION_NAME } from '../../src/config/appConfig';
import { settings } from '../../src/config/settings';
import { makeAppClient } from '../appClient';
import type { VerifyTarget } from '../target';
import type { AzdValues } from './azdEnvironment';
import { AzureSetupError } from './azureSetupError';
import { readSigningKey } from './keyVaultSecret';

const DISABLED = `AzureWebJobs.${GUARDED_FUNCTION_NAME}.Disabled`;
const FAULT_SETTING = 'FAULT_SWITCH_ENABLED';

/**
 * The deployment of one azd environment, found through ARM: the function app's host key (for the
 * operator API), its settings (sink table, dead-letter container), and the storage the host
 * checkpoints to. Every call is made with the signed-in credential; the key stays in memory.
 */
export async function createAzureTarget(azd: AzdValues, credential: TokenCredential): Promise<VerifyTarget> {
  const rg = azd.AZURE_RESOURCE_GROUP;
  const site = azd.AZURE_FUNCTION_APP_NAME;
  const arm = new WebSiteManagementClient(credential, azd.AZURE_SUBSCRIPTION_ID);
  const readSettings = async () => (await arm.webApps.listApplicationSettings(rg, site)).properties ?? {};
  let found: Record<string, string>;
  let functionKey: string | undefined;
  try {
    found = await readSettings();
    functionKey = (await arm.webApps.listHostKeys(rg, site)).functionKeys?.default;
  } catch (error) {
    throw new AzureSetupError(
      `cannot read function app ${site} in ${rg} through ARM (${firstLine(error)}): you need Website Contributor on it`,
    );
  }
  if (functionKey === undefined) throw new AzureSetupError(`function app ${site} has no default host key`);
  if ((found.SINK ?? 'table').toLowerCase() !== 'table')
    throw new AzureSetupError(
      `${site} uses SINK=${found.SINK ?? ''}: the fault switch only takes the sample Table sink down`,
    );
  const previousFault = found[FAULT_SETTING];
  const writeSetting = async (name: string, value: string | undefined) => {
    const current = await readSettings();
    const next = Object.fromEntries(Object.entries(current).filter(([k]) => k !== name));
    if (value !== undefined) next[name] = value;
    // A PUT that replaces all settings: read, merge, write (the trigger switch does the same).
    await arm.webApps.updateApplicationSettings(rg, site, { properties: next });
  };
  const account = azd.AZURE_STORAGE_ACCOUNT_NAME;
  const blobs = new BlobServiceClient(`https://${account}.blob.core.windows.net`, credential);
  const app = { baseUrl: azd.SERVICE_API_URI, functionKey };
  const client = makeAppClient(app);
  return {
    kind: 'azure',
    describe: [
      `Function app ${site} in resource group ${rg} (${azd.SERVICE_API_URI}), hub ${azd.EVENTHUB_NAME} on ${azd.EVENTHUB_FULLY_QUALIFIED_NAMESPACE}.`,
      `Changes: sets ${FAULT_SETTING}=true for the run (the app restarts) and puts it back (${previousFault === undefined ? 'removed' : `"${previousFault}"`}) at the end;`,
      'trips the breaker for real (the operators get the trip email), approves it, and leaves readings verify-<run>-* in the sink table.',
    ],
    app,
    functionName: GUARDED_FUNCTION_NAME,
    stores: {
      sinkTable: new TableClient(
        `https://${account}.table.core.windows.net`,
        found.SINK_TABLE_NAME ?? settings.SINK_TABLE_NAME.default ?? 'HomeActivity',
        credential,
      ),
      deadLetters: blobs.getContainerClient(
        found.DEAD_LETTER_CONTAINER ?? settings.DEAD_LETTER_CONTAINER.default ?? 'dead-letters',
      ),
      checkpoints: {
        container: blobs.getContainerClient(CHECKPOINT_CONTAINER),
        prefix: checkpointPrefix(
          azd.EVENTHUB_FULLY_QUALIFIED_NAMESPACE,
          azd.EVENTHUB_NAME,
          azd.EVENTHUB_CONSUMER_GROUP,
        ),
      },
    },
    now: () => Date.now(),
    pollMs: 5_000,
    pass: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    createProducer: () =>
      new EventHubProducerClient(azd.EVENTHUB_FULLY_QUALIFIED_NAMESPACE, azd.EVENTHUB_NAME, credential),
    triggerDisabled: async () =>
      ['true', '1'].includes((await readSettings())[DISABLED]?.trim().toLowerCase() ?? ''),
    async enableFaultSwitch() {
      await writeSetting(FAULT_SETTING, 'true');
      return `OK ${FAULT_SETTING}=true set on ${site} for this run (the app restarts; it was ${previousFault ?? 'unset'})`;
    },
    async restoreFaultSwitch() {
      await writeSetting(FAULT_SETTING, previousFault);
      return `${FAULT_SETTING}: put back to ${previousFault === undefined ? 'unset (off)' : `"${previousFault}"`}`;
    },
    // Azure sends the email through ACS; the run cannot read the operators' mailbox. The orchestration
    // publishes 'awaiting-approval' only after its email step, so that phase is the notice seen.
    async notificationFor(tripId) {
      const st = await client.status();
      return st.tripId === tripId && st.phase === 'awaiting-approval'
        ? 'the orchestration sent the trip notice (phase awaiting-approval)'
        : undefined;
    },
    signingKey: () => readSigningKey(azd.AZURE_KEY_VAULT_NAME, credential),
    close: () => Promise.resolve(),
  };
}

export const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? '';
