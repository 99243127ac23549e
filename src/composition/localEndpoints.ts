import type { TokenCredential } from '@azure/core-auth';

import type { LocalArm } from './makeTriggerSwitch';

/**
 * Where a host that embeds the app (the simulator in sim/, and through it the tests, the demo and
 * `npm run verify -- --target local`) points the clients that would otherwise reach Azure. The one way
 * such endpoints enter the app: nothing in Azure sets it, and no app setting can.
 */
export interface LocalEndpoints {
  /** Stands in for the managed identity (DefaultAzureCredential otherwise): ARM, Storage, Redis, email. */
  readonly credential?: TokenCredential;
  /** An ARM-shaped HTTPS server for the trigger switch, and the CA certificate it serves under. */
  readonly arm?: LocalArm;
  /** The CA certificate of a local ACS endpoint (the endpoint itself is the ACS_ENDPOINT setting). */
  readonly acsCa?: string;
}
