import type { AppConfig } from '../config/appConfig';
import { queueDeadLetterCount } from '../deadLetters/queueDeadLetterCount';
import { makeConsumerProgress } from '../hub/consumerProgress';
import { blobNoticeLedger, NOTICE_LEDGER_CONTAINER } from '../notify/blobNoticeLedger';
import type { BreakerActivityDeps } from '../orchestration/breakerActivities';
import type { BreakerOrchestratorSettings } from '../orchestration/breakerOrchestrator';
import type { HeartbeatDeps } from '../watchdog/heartbeat';
import type { WatchdogDeps } from '../watchdog/runWatchdog';
import { heldBacklogReaderFor } from './backlogRuntime';
import { maintenanceRecordFor } from './maintenanceRuntime';
import { noticeChannels } from './noticeChannels';
import { createRetentionGuardDeps, drainSavedFor } from './retentionRuntime';
import type { Runtime } from './runtime';

/**
 * Retry of every activity: ARM and email calls that fail transiently are tried again after 10 s,
 * 20 s, 40 s, 80 s. The SDK clients' own few quick retries sit inside each attempt.
 */
const ACTIVITY_RETRY = { firstRetryIntervalMs: 10_000, maxAttempts: 5, backoffCoefficient: 2 };

/** The trigger starts the orchestration right after tripping; the watchdog only steps in after this. */
export const WATCHDOG_GRACE_MS = 2 * 60_000;

/** Orchestrator settings from config: fixed for the life of an orchestration (read once per replay). */
export function orchestratorSettingsFrom(config: AppConfig): BreakerOrchestratorSettings {
  return {
    maxReminders: config.approval.maxReminders,
    reminderMinutes: config.approval.reminderMinutes,
    probationSeconds: config.breaker.probationSeconds,
    drainSaved: true,
    retry: ACTIVITY_RETRY,
  };
}

/** The activities' dependencies, built on first use from the process runtime. */
export function createActivityDeps(runtime: Runtime): BreakerActivityDeps {
  const { config } = runtime;
  return {
    store: runtime.breakerStore,
    triggerSwitch: runtime.controls.triggerSwitch(),
    controlMode: config.control.mode,
    channels: noticeChannels(config, { clock: runtime.clock, emailSender: runtime.controls.emailSender() }),
    clock: runtime.clock,
    deadLetterCount: queueDeadLetterCount(runtime.storage.queue(config.processing.deadLetterQueue)),
    heldBacklog: heldBacklogReaderFor(runtime),
    notices: blobNoticeLedger(runtime.storage.container(NOTICE_LEDGER_CONTAINER)),
    maintenance: maintenanceRecordFor(runtime),
    drainSaved: drainSavedFor(runtime),
  };
}

export function createWatchdogDeps(runtime: Runtime): WatchdogDeps {
  const { config } = runtime;
  const { controls } = runtime;
  return {
    store: runtime.breakerStore,
    clock: runtime.clock,
    functionName: config.functionName,
    graceMs: WATCHDOG_GRACE_MS,
    repair: {
      triggerSwitch: controls.triggerSwitch(),
      email: controls.emailSender(),
      approvers: config.email.approvers,
    },
    sink: runtime.sink,
    maintenance: maintenanceRecordFor(runtime),
    ...(config.eventHub.retentionGuard && { retentionGuard: createRetentionGuardDeps(runtime) }),
  };
}

let heartbeatCache: { runtime: Runtime; deps: HeartbeatDeps } | undefined;

/**
 * The heartbeat's reads: breaker state, the trigger switch (ARM in Azure), dead-letter queue depth and,
 * unless HEARTBEAT_READS_BACKLOG is false, the consumer's progress (cached with the deps, so its memory
 * of waiting partitions lasts as long as the process).
 */
export function createHeartbeatDeps(runtime: Runtime): HeartbeatDeps {
  if (heartbeatCache?.runtime !== runtime) {
    const { config } = runtime;
    heartbeatCache = {
      runtime,
      deps: {
        store: runtime.breakerStore,
        triggerSwitch: runtime.controls.triggerSwitch(),
        deadLetterCount: queueDeadLetterCount(runtime.storage.queue(config.processing.deadLetterQueue)),
        clock: runtime.clock,
        functionName: config.functionName,
        maintenance: maintenanceRecordFor(runtime),
        ...(config.eventHub.heartbeatReadsBacklog && {
          consumerProgress: makeConsumerProgress(() => heldBacklogReaderFor(runtime)(false)),
        }),
      },
    };
  }
  return heartbeatCache.deps;
}

/** Builds `make(runtime)` once, on first use: the host indexes functions before any of them runs. */
export function lazily<T>(runtime: Runtime, make: (runtime: Runtime) => T): () => T {
  let value: T | undefined;
  return () => (value ??= make(runtime));
}
