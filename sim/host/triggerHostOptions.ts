import type { EventHubModel, HubEvent } from './eventHubModel';
import type { RpcInvocation } from './fakeFunctionsCore';
import type { EventHubsExtension } from './hostRound';
import type { SimClock } from './simClock';
import type { WireOptions } from './triggerWire';

/** What the trigger host model runs on and what it tells: the hub, the clock, the app's settings. */
export interface TriggerHostModelOptions {
  readonly functionName: string;
  readonly hub: EventHubModel;
  readonly clock: SimClock;
  /** Whether `AzureWebJobs.<fn>.Disabled` is set; read when the host starts. */
  readonly isDisabled: () => Promise<boolean>;
  /**
   * The app settings' version: every change restarts the host on every instance. Without it the
   * host restarts when `isDisabled` flips (read every round).
   */
  readonly settingsVersion?: () => string;
  /**
   * How long the old instances keep running after a settings change before the restart kills them
   * (drawn per change; default 0: at once). In Azure the ARM PUT returns and the old instances keep
   * working for seconds, then are killed mid-work (recreate strategy).
   */
  readonly restartDelayMs?: () => number;
  /** Rebuilds the app's in-memory state after a restart of the host or the worker (a new process). */
  readonly onRestart?: (reason: string) => Promise<void>;
  /** Defaults to host.json `extensions.eventHubs.maxEventBatchSize`. */
  readonly maxBatchSize?: number;
  /** Non-trigger inputs of each invocation (e.g. the durable client binding data). */
  readonly inputData?: () => RpcInvocation['inputData'];
  /** Instances at the start (default 1); partitions are spread over them round robin. */
  readonly instances?: number;
  /** Seeds the host's random choices (its retry delays); default 1. */
  readonly seed?: number;
  /** Default 6.x, what the pinned bundle carries. */
  readonly extension?: EventHubsExtension;
  readonly wire?: WireOptions;
  /**
   * Persists a checkpoint as the host does (e.g. a blob in `azure-webjobs-eventhub`); awaited before the
   * partition's next invocation. `lastProcessed` is the batch's last event.
   */
  readonly onCheckpoint?: (partitionId: string, lastProcessed: HubEvent) => Promise<void>;
  /**
   * Reads a partition's persisted checkpoint (the sequence number of the last event processed), as the
   * host does when a listener starts (and only then): a checkpoint someone else moved (the app's
   * retention guard) takes effect at the next start. Undefined: none written; without the option the
   * model keeps its checkpoints in memory across restarts.
   */
  readonly loadCheckpoint?: (partitionId: string) => Promise<number | undefined>;
}
