import type { BreakerStore } from '../breaker/breakerStore';
import type { StoreHealth } from '../breaker/storeHealth';
import type { TriggerSwitch } from '../control/triggerSwitch';
import type { FaultSwitchDeps } from '../faults/faultHandler';
import type { HeldBacklog } from '../hub/heldBacklog';
import type { Clock } from '../kernel/clock';
import type { MaintenanceRecord } from '../maintenance/maintenance';
import type { OrchestrationControlFactory } from '../orchestration/orchestrationControl';
import type { ProgressSnapshot } from '../processing/partitionProgress';

/** The thresholds the status shows next to the live counts. */
export interface OperatorPolicy {
  readonly threshold: number;
  readonly probationThreshold: number;
  readonly windowSeconds: number;
  readonly bucketSeconds: number;
  readonly probationSeconds: number;
}

/** Everything the operator API and dashboard read or drive; real adapters in the composition root. */
/** What the retention guard saved, for the status API: how many, where, how they come back. */
export interface SavedEventsView {
  readonly total: number;
  readonly byPartition: Readonly<Record<string, number>>;
  readonly where: string;
  readonly comeBack: string;
}

export interface OperatorDeps {
  readonly functionName: string;
  readonly clock: Clock;
  readonly policy: OperatorPolicy;
  readonly store: Omit<BreakerStore, 'record' | 'close'>;
  readonly triggerSwitch: TriggerSwitch;
  /** Maintenance mode (`/api/breaker/maintenance`): the trigger stopped on purpose, durably recorded. */
  readonly maintenance: MaintenanceRecord;
  /** Approximate number of queued dead letters (queue metadata); undefined when unknown. */
  readonly deadLetterCount: () => Promise<number | undefined>;
  readonly orchestration: OrchestrationControlFactory;
  /** The processing gate's view of store reachability in this instance (G6), when there is one. */
  readonly storeHealth?: () => StoreHealth;
  /** Held batches, re-runs and stuck partitions as this instance's processing sees them, when there is one. */
  readonly partitionProgress?: () => ProgressSnapshot;
  /** What the hub holds behind the checkpoints (peek the oldest while OPEN); never throws. */
  readonly heldBacklog?: (peekOldest: boolean) => Promise<HeldBacklog>;
  /** Events the retention guard saved and not yet drained, with where they are; absent: no guard. */
  readonly savedEvents?: () => Promise<SavedEventsView>;
  /** APPROVAL_REQUIRE_SIGNED_IN: APPROVERS; a reset then needs one of them signed in, not only the key. */
  readonly signedInApprovers?: readonly string[];
  /** Shown on the dashboard: which deployment this is. */
  readonly environmentName?: string;
  /** `/api/breaker/fault` (npm run verify); answers 404 unless FAULT_SWITCH_ENABLED. */
  readonly faultSwitch?: FaultSwitchDeps;
}
