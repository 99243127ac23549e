/** The typed, validated, frozen configuration every part of the app receives. */

import type { ApprovalConfig } from '../approval/issueApprovalLink';
import type { BreakerConfig } from '../breaker/breakerPolicy';
import type { ControlConfig } from '../control/triggerSwitch';
import type { OutageHandling } from '../processing/batchProcessor';
import type { Ordering } from '../processing/ordering';
import type { TriggerRetryConfig } from '../processing/processHandler';
import type { StorageConnection } from '../storage/storageClients';
import type { OperationsConfig } from './operationsConfig';

/** Name of the guarded Event Hubs function: letters, digits and `_` only, so it can be disabled on Linux. */
export const GUARDED_FUNCTION_NAME = 'ProcessSensorEvents';

/** How the app itself reaches the hub (the held-backlog reader), from the trigger's connection setting. */
export type EventHubConnection =
  | { readonly kind: 'connectionString'; readonly connectionString: string }
  | { readonly kind: 'identity'; readonly fullyQualifiedNamespace: string };

export interface EventHubConfig {
  /** App setting *name* the trigger reads its connection from. */
  readonly connectionSetting: string;
  readonly connection: EventHubConnection;
  readonly hubName: string;
  readonly consumerGroup: string;
  readonly retentionHours: number;
  /** The retention guard runs on the watchdog's tick (RETENTION_GUARD_ENABLED). */
  readonly retentionGuard: boolean;
  /**
   * Save the waiting events once the oldest is this close to the retention (RETENTION_SAVE_MARGIN_MINUTES);
   * undefined: a seventh of the retention (`saveMarginMs` in retention/retentionGuard.ts).
   */
  readonly retentionSaveMarginMinutes: number | undefined;
  /** The heartbeat reports consumer lag and stalled partitions (HEARTBEAT_READS_BACKLOG). */
  readonly heartbeatReadsBacklog: boolean;
}

export interface ProcessingConfig {
  readonly maxAttempts: number;
  readonly retryInitialDelayMs: number;
  readonly retryMaxDelayMs: number;
  readonly batchDeadlineMs: number;
  readonly sinkTable: string;
  readonly deadLetterContainer: string;
  readonly deadLetterQueue: string;
  /** Hold, isolate and fail fast on outage-like failures, so an outage dead-letters nothing. */
  readonly outage: OutageHandling;
  /** Concurrent across keys, in order within a key. */
  readonly ordering: Ordering;
  /** A reading dated further ahead of its event's enqueued time is refused (READING_MAX_FUTURE_SKEW_SECONDS). */
  readonly maxFutureSkewMs: number;
}

/** Where readings go (`SINK`); the Table sink's table is `processing.sinkTable`. */
export type SinkConfig =
  | { readonly kind: 'table' }
  | { readonly kind: 'http'; readonly url: string; readonly healthUrl: string; readonly timeoutMs: number };

export type EmailTransportConfig =
  | { readonly provider: 'log' }
  | { readonly provider: 'smtp'; readonly host: string; readonly port: number; readonly secure: boolean }
  | {
      readonly provider: 'acs';
      readonly endpoint: string | undefined;
      readonly connectionString: string | undefined;
    };

export interface EmailConfig {
  readonly transport: EmailTransportConfig;
  readonly sender: string;
  readonly approvers: readonly string[];
}

/** The fault switch (`npm run verify`): off unless FAULT_SWITCH_ENABLED; only the sample Table sink. */
export interface FaultSwitchConfig {
  readonly enabled: boolean;
  readonly maxMinutes: number;
}

export interface AppConfig {
  readonly functionName: string;
  /** Shown on every page and email subject: which deployment this is. */
  readonly environmentName: string;
  /** Percent of the healthy sink and Redis spans exported (TELEMETRY_HEALTHY_SPANS_PERCENT). */
  readonly healthySpansPercent: number;
  readonly eventHub: EventHubConfig;
  readonly storage: StorageConnection;
  readonly processing: ProcessingConfig;
  readonly sink: SinkConfig;
  readonly triggerRetry: TriggerRetryConfig;
  readonly breaker: BreakerConfig;
  readonly control: ControlConfig;
  readonly email: EmailConfig;
  readonly approval: ApprovalConfig;
  readonly operations: OperationsConfig;
  readonly faultSwitch: FaultSwitchConfig;
  /** Client id of a user-assigned managed identity, when one is used. */
  readonly managedIdentityClientId: string | undefined;
  /** True when running in Azure App Service / Functions (WEBSITE_SITE_NAME is set). */
  readonly runningInAzure: boolean;
}
