import type { TableClient } from '@azure/data-tables';
import type { EventHubProducerClient } from '@azure/event-hubs';
import type { ContainerClient } from '@azure/storage-blob';

import type { AppEndpoint } from './appClient';

/** Where the run reads what the app did: the sink's table, the dead letters, the host's checkpoints. */
export interface TargetStores {
  readonly sinkTable: TableClient;
  readonly deadLetters: ContainerClient;
  readonly checkpoints: { readonly container: ContainerClient; readonly prefix: string };
}

/**
 * One deployment the run verifies: Azure (found through azd and ARM) or the simulator on this machine.
 * The run itself is the same for both; only time, ARM and the mailbox differ.
 */
export interface VerifyTarget {
  readonly kind: 'local' | 'azure';
  /** Header lines: what is verified and what the run changes there. */
  readonly describe: readonly string[];
  readonly app: AppEndpoint;
  readonly functionName: string;
  readonly stores: TargetStores;
  /** The target's time: virtual in the simulator, the wall clock in Azure. */
  now(): number;
  /** Lets `ms` of the target's time pass (the simulator runs that many seconds; Azure sleeps). */
  pass(ms: number, signal: AbortSignal): Promise<void>;
  /** How often a wait looks again (target time). */
  readonly pollMs: number;
  createProducer(): EventHubProducerClient;
  /** `AzureWebJobs.<fn>.Disabled` as ARM has it. */
  triggerDisabled(): Promise<boolean>;
  /** Turns FAULT_SWITCH_ENABLED on for the run (Azure: an app setting, which restarts the app). */
  enableFaultSwitch(): Promise<string>;
  /** Puts FAULT_SWITCH_ENABLED back as it was found; says what it did. */
  restoreFaultSwitch(): Promise<string>;
  /** What shows that the trip's notice went out, or undefined when nothing does yet. */
  notificationFor(tripId: string): Promise<string | undefined>;
  /** The app's current approval signing key, kept in memory for one link and never printed. */
  signingKey(): Promise<string>;
  close(): Promise<void>;
}
