import type { TokenCredential } from '@azure/core-auth';
import { DefaultAzureCredential } from '@azure/identity';

import type { BreakerGate } from '../breaker/breakerGate';
import type { BreakerStore } from '../breaker/breakerStore';
import { makeStoreBreakerGate, type StoreBreakerGate } from '../breaker/storeBreakerGate';
import type { AppConfig } from '../config/appConfig';
import { ConfigError } from '../config/errors';
import { type Environment, loadConfig } from '../config/loadConfig';
import { readTelemetryConfig } from '../config/readTelemetryConfig';
import type { TriggerSwitch } from '../control/triggerSwitch';
import { makeBlobQueueDeadLetterStore } from '../deadLetters/blobQueueDeadLetterStore';
import type { DeadLetterStore } from '../deadLetters/deadLetter';
import { type Clock, systemClock } from '../kernel/clock';
import type { EmailSender } from '../notify/email/emailSender';
import {
  type BatchProcessor,
  makeBatchProcessor,
  type OutagePolicy,
  withHeldBatchTelemetry,
} from '../processing/batchProcessor';
import { makePartitionProgress, type PartitionProgress } from '../processing/partitionProgress';
import type { SavedEvents } from '../retention/savedEvents';
import type { ActivitySink } from '../sinks/activitySink';
import { makeStorageClients, type StorageClients } from '../storage/storageClients';
import { startAzureMonitorTelemetry } from './azureMonitorTelemetry';
import { withFaultSwitchWhenEnabled } from './faultSwitchRuntime';
import type { LocalEndpoints } from './localEndpoints';
import { makeActivitySink } from './makeActivitySink';
import { makeBreakerStore } from './makeBreakerStore';
import { makeNotifyAndControl, type NotifyAndControl } from './notifyAndControl';

/** Everything the function handlers need, created once per process. */
export interface Runtime {
  readonly config: AppConfig;
  readonly clock: Clock;
  readonly storage: StorageClients;
  readonly sink: ActivitySink;
  readonly deadLetters: DeadLetterStore;
  /** The shared failure window and breaker state (`BREAKER_STORE` selects Redis or Table). */
  readonly breakerStore: BreakerStore;
  /** The processing function's cached view of the store; `health()` feeds the status page (G6). */
  readonly breaker: StoreBreakerGate;
  readonly processBatch: BatchProcessor;
  /** Held batches and re-runs per partition in this instance (status page, demo); stuck ones are logged. */
  readonly progress: PartitionProgress;
  /** The process's one Azure credential, created on first use (local runs never create it). */
  readonly getCredential: () => TokenCredential;
  /**
   * The process's one trigger switch and email sender, built on first use (an unusable email setting
   * fails the first activity that sends, not the start of the processing function).
   */
  readonly controls: { readonly triggerSwitch: () => TriggerSwitch; readonly emailSender: () => EmailSender };
  /** How long the hub keeps events: EVENTHUB_RETENTION_HOURS, or the simulator's compressed one. */
  readonly hubRetentionMs: number;
  /** Wraps the retention guard's saved events (RuntimeOptions.decorateSaved); identity in Azure. */
  readonly decorateSaved: (saved: SavedEvents) => SavedEvents;
}

/** What a host embedding the app (the end-to-end tests, `npm run demo`) may change. */
export interface RuntimeOptions {
  readonly clock?: Clock;
  /** Wraps the sink, e.g. to observe what reaches it or to simulate a downstream outage. */
  readonly decorateSink?: (sink: ActivitySink) => ActivitySink;
  /** The simulator's stand-ins for Azure: a credential, a local ARM, a local ACS CA (LocalEndpoints). */
  readonly endpoints?: LocalEndpoints;
  /**
   * Replaces the store-backed gate in the batch processor only (`breaker` and the status page keep the
   * store's view). The pipeline bench passes `alwaysClosedGate` for "breaker off": never consulted.
   */
  readonly breakerGate?: BreakerGate;
  /**
   * `dead-letter`: outage-like failures dead-lettered while CLOSED, the processing before batches were
   * held. Only the outage bench's "before" uses it; it is not an app setting, because it dead-letters an
   * outage and loses the order per key (G2).
   */
  readonly outagePolicy?: OutagePolicy;
  /**
   * A simulated hub's retention, shorter than the service allows (the time-compressed demo): replaces
   * EVENTHUB_RETENTION_HOURS, and RETENTION_SAVE_MARGIN_MINUTES is checked against it.
   */
  readonly hubRetentionMs?: number;
  /**
   * Wraps the retention guard's saved events (blobs under `saved/`), e.g. to simulate storage down or a
   * process crashing between the blob writes and the checkpoint move.
   */
  readonly decorateSaved?: (saved: SavedEvents) => SavedEvents;
}

/**
 * The composition root: the only place that reads the environment and creates real clients.
 * Clients are created here but connect lazily, on first use.
 */
export function createRuntime(env: Environment, options: RuntimeOptions = {}): Runtime {
  const clock = options.clock ?? systemClock;
  const decorateSink = options.decorateSink ?? ((s: ActivitySink) => s);
  const loaded = loadConfig(env);
  const config = options.outagePolicy ? withOutagePolicy(loaded, options.outagePolicy) : loaded;
  const hubRetentionMs = options.hubRetentionMs ?? config.eventHub.retentionHours * 3_600_000;
  const margin = config.eventHub.retentionSaveMarginMinutes;
  if (margin !== undefined && margin * 60_000 >= hubRetentionMs)
    throw new ConfigError([
      {
        setting: 'RETENTION_SAVE_MARGIN_MINUTES',
        message: `must be less than the hub's retention (${hubRetentionMs / 60_000} min, EVENTHUB_RETENTION_HOURS or the simulator's)`,
      },
    ]);
  const { endpoints } = options;
  let credential: TokenCredential | undefined = endpoints?.credential;
  const getCredential = () =>
    (credential ??= new DefaultAzureCredential(
      config.managedIdentityClientId ? { managedIdentityClientId: config.managedIdentityClientId } : {},
    ));
  const storage = makeStorageClients(config.storage, getCredential);
  // SINK chooses the downstream; the per-event retry policy is the one retry layer for its calls.
  const sink = decorateSink(
    withFaultSwitchWhenEnabled(makeActivitySink(config, storage), config, storage, clock),
  );
  // Dead-letter writes are retried by the SDK only briefly: when storage stays down the invocation
  // throws and the host's retry policy re-runs the whole batch later (the one retry layer that holds).
  const deadLetterRetry = { maxRetries: 2, retryDelayMs: 500, tryTimeoutMs: 30_000 };
  const deadLetters = makeBlobQueueDeadLetterStore(
    storage.container(config.processing.deadLetterContainer, deadLetterRetry),
    storage.queue(config.processing.deadLetterQueue, deadLetterRetry),
  );
  const breakerStore = makeBreakerStore(config, storage, { getCredential, clock });
  const breaker = makeStoreBreakerGate({
    store: breakerStore,
    clock,
    stateCacheMs: config.breaker.stateCacheMs,
    // Process-wide, outside any invocation: outages are logged once per interval, not per batch.
    logger: console,
  });
  const progress = makePartitionProgress({
    clock,
    logger: console,
    stuckAfterReruns: config.processing.outage.isolateAfterReruns,
    logIntervalMs: 60_000,
  });
  // Held batches also leave a BatchHeld line for the alert rules (kernel/telemetryNames.ts).
  const processBatch = withHeldBatchTelemetry(
    makeBatchProcessor({
      functionName: config.functionName,
      sink,
      deadLetters,
      breaker: options.breakerGate ?? breaker,
      clock,
      retry: {
        maxAttempts: config.processing.maxAttempts,
        initialDelayMs: config.processing.retryInitialDelayMs,
        maxDelayMs: config.processing.retryMaxDelayMs,
      },
      batchDeadlineMs: config.processing.batchDeadlineMs,
      outage: config.processing.outage,
      ordering: config.processing.ordering,
      maxFutureSkewMs: config.processing.maxFutureSkewMs,
      progress,
      // The nominal delays of the host retry policy registered on the trigger (the host adds ±20 % jitter).
      nextRerunDelayMs: (rerun) =>
        Math.min(
          config.triggerRetry.minimumIntervalSeconds * 2 ** rerun,
          config.triggerRetry.maximumIntervalSeconds,
        ) * 1000,
    }),
    clock,
  );
  let built: NotifyAndControl | undefined;
  const controls = () => (built ??= makeNotifyAndControl(config, { getCredential, endpoints }));
  return {
    config,
    clock,
    storage,
    sink,
    deadLetters,
    breakerStore,
    breaker,
    processBatch,
    progress,
    getCredential,
    controls: { triggerSwitch: () => controls().triggerSwitch, emailSender: () => controls().emailSender },
    hubRetentionMs,
    decorateSaved: options.decorateSaved ?? ((s: SavedEvents) => s),
  };
}

let shared: Runtime | undefined;

/** The process-wide runtime, built from `process.env` on first use. */
export function getRuntime(): Runtime {
  if (shared === undefined) {
    shared = createRuntime(process.env);
    startAzureMonitorTelemetry(
      readTelemetryConfig(process.env),
      shared.config.environmentName,
      shared.getCredential,
      process.env.AzureWebJobsScriptRoot ?? process.cwd(),
      shared.config.healthySpansPercent,
    );
  }
  return shared;
}

/**
 * For hosts that embed the app (the end-to-end tests and `npm run demo`): the function modules use
 * this runtime instead of building one from `process.env`. Call it before they load.
 */
export function installRuntime(runtime: Runtime): void {
  shared = runtime;
}

function withOutagePolicy(config: AppConfig, policy: OutagePolicy): AppConfig {
  const { processing } = config;
  return { ...config, processing: { ...processing, outage: { ...processing.outage, policy } } };
}
