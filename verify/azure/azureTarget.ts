import { setTimeout as sleep } from 'node:timers/promises';
import type { TokenCredential } from '@azure/core-auth';
import { TableClient } from '@azure/data-tables';
import { EventHubProducerClient } from '@azure/event-hubs';
import { BlobServiceClient } from '@azure/storage-blob';

import { GUARDED_FUNCTION_NAME } from '../../src/config/appConfig';
import { settings } from '../../src/config/settings';
import { readSwitch } from '../../src/control/switchReading';
import { CHECKPOINT_CONTAINER, checkpointPrefix } from '../../src/hub/checkpoints';
import { makeAppClient } from '../appClient';
import type { VerifyTarget } from '../target';
import { armSite } from './armSite';
import type { AzdValues } from './azdEnvironment';
import { type AzureCloud, serviceUrl } from './azureCloud';
import { AzureSetupError } from './azureSetupError';
import { readSigningKey } from './keyVaultSecret';

const FAULT_SETTING = 'FAULT_SWITCH_ENABLED';
/** Only a sandbox carries it (Bicep parameter allowVerify, default off): the run refuses any other app. */
export const OPT_IN_SETTING = 'BREAKWATER_VERIFY_ALLOWED';

export interface AzureTarget extends VerifyTarget {
  /** Every change the run will make, listed before it makes any (and confirmed, or --yes). */
  readonly changes: readonly string[];
}

/**
 * The deployment of one azd environment, found through ARM. Every URL is built from validated names
 * (azureNames.ts) with its host checked (azureCloud.ts); the app's URL is the site's defaultHostName from
 * ARM, and an azd file that names another host is refused before the host key is even read. The app must
 * have opted in (BREAKWATER_VERIFY_ALLOWED=true). Nothing is changed here; the key stays in memory.
 */
export async function createAzureTarget(
  azd: AzdValues,
  envName: string,
  cloud: AzureCloud,
  credential: TokenCredential,
): Promise<AzureTarget> {
  const rg = azd.AZURE_RESOURCE_GROUP;
  const site = azd.AZURE_FUNCTION_APP_NAME;
  const account = azd.AZURE_STORAGE_ACCOUNT_NAME;
  const vaultUrl = serviceUrl(cloud.keyVault, azd.AZURE_KEY_VAULT_NAME, 'AZURE_KEY_VAULT_NAME');
  const blobUrl = serviceUrl(cloud.blob, account, 'AZURE_STORAGE_ACCOUNT_NAME');
  const tableUrl = serviceUrl(cloud.table, account, 'AZURE_STORAGE_ACCOUNT_NAME');
  const arm = armSite(cloud, credential, {
    subscriptionId: azd.AZURE_SUBSCRIPTION_ID,
    resourceGroup: rg,
    site,
  });

  const baseUrl = (await arm.url()).origin;
  if (fileOrigin(azd.SERVICE_API_URI) !== baseUrl)
    throw new AzureSetupError(
      `azd environment "${envName}": SERVICE_API_URI is ${JSON.stringify(azd.SERVICE_API_URI.slice(0, 200))} but ARM reports function app ${site} at ${baseUrl} (its defaultHostName): the file does not describe this app (copied from another environment?). Nothing was sent to either; run \`azd env refresh -e ${envName}\``,
    );
  const found = await arm.readSettings();
  if (found[OPT_IN_SETTING]?.trim().toLowerCase() !== 'true')
    throw new AzureSetupError(
      `function app ${site} has not opted in to verify runs (app setting ${OPT_IN_SETTING} is ${found[OPT_IN_SETTING] === undefined ? 'unset' : JSON.stringify(found[OPT_IN_SETTING].slice(0, 40))}, not true): run verify on a sandbox, after \`azd env set ${OPT_IN_SETTING} true -e ${envName} && azd provision -e ${envName}\` there (docs/demo.md); nothing was changed`,
    );
  if ((found.SINK ?? 'table').toLowerCase() !== 'table')
    throw new AzureSetupError(
      `${site} uses SINK=${found.SINK?.slice(0, 40) ?? ''}: the fault switch only takes the sample Table sink down`,
    );
  const functionKey = await arm.functionKey();
  const previousFault = found[FAULT_SETTING];
  const sinkTable = found.SINK_TABLE_NAME ?? settings.SINK_TABLE_NAME.default ?? 'HomeActivity';
  const blobs = new BlobServiceClient(blobUrl.origin, credential);
  const app = { baseUrl, functionKey };
  const client = makeAppClient(app);
  const previous = previousFault === undefined ? 'unset' : JSON.stringify(previousFault);
  return {
    kind: 'azure',
    describe: [
      `Function app ${site} in resource group ${rg} (${baseUrl}, from ARM), hub ${azd.EVENTHUB_NAME} on ${azd.EVENTHUB_FULLY_QUALIFIED_NAMESPACE}.`,
    ],
    changes: [
      `app setting ${FAULT_SETTING}=true on ${site} for the run (the app restarts), put back to ${previous} at the end;`,
      `the fault switch takes the sample sink (table ${sinkTable}) down: the breaker trips for real, AzureWebJobs.${GUARDED_FUNCTION_NAME}.Disabled is set through ARM, the approvers get the trip email (and the webhook, if one is set);`,
      'the trip is approved through the approval page, the breaker closes; readings verify-<run>-* stay in the sink table, poison ones as dead letters.',
    ],
    app,
    functionName: GUARDED_FUNCTION_NAME,
    stores: {
      sinkTable: new TableClient(tableUrl.origin, sinkTable, credential),
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
    triggerDisabled: async () => readSwitch(await arm.settings(), GUARDED_FUNCTION_NAME).disabled,
    async enableFaultSwitch() {
      await arm.writeSetting(FAULT_SETTING, 'true');
      return `OK ${FAULT_SETTING}=true set on ${site} for this run (the app restarts; it was ${previous})`;
    },
    async restoreFaultSwitch() {
      await arm.writeSetting(FAULT_SETTING, previousFault);
      return `${FAULT_SETTING}: put back to ${previousFault === undefined ? 'unset (off)' : JSON.stringify(previousFault)} on ${site}`;
    },
    // Azure sends the email through ACS; the run cannot read the operators' mailbox. The orchestration
    // publishes 'awaiting-approval' only after its email step, so that phase is the notice seen.
    async notificationFor(tripId) {
      const st = await client.status();
      return st.tripId === tripId && st.phase === 'awaiting-approval'
        ? 'the orchestration sent the trip notice (phase awaiting-approval)'
        : undefined;
    },
    signingKey: () => readSigningKey(vaultUrl, credential),
    close: () => Promise.resolve(),
  };
}

/** The azd file's SERVICE_API_URI as an origin to compare (a path or query makes it another URL). */
function fileOrigin(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.pathname.replace(/\/+$/, '') === '' && !url.search && !url.hash ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
