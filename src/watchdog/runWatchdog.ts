import type { DurableClient } from 'durable-functions';

import type { BreakerStore } from '../breaker/breakerStore';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../kernel/logger';
import { holdForMaintenance, readMaintenance } from '../maintenance/holdForMaintenance';
import type { MaintenanceRecord } from '../maintenance/maintenance';
import { findInstance, isLive } from '../orchestration/instanceStatus';
import { breakerInstanceId } from '../orchestration/orchestrationIds';
import { startBreakerOrchestration, type StartResult } from '../orchestration/startBreakerOrchestration';
import type { RetentionGuardDeps } from '../retention/retentionGuard';
import type { ActivitySink } from '../sinks/activitySink';
import { repairTrigger, type TriggerRepairDeps } from './repairTrigger';

export interface WatchdogDeps {
  readonly store: BreakerStore;
  readonly clock: Clock;
  readonly functionName: string;
  /**
   * Time after a state change before the watchdog acts: the trigger starts the orchestration right
   * after tripping, and starting it from here at the same moment would race that start.
   */
  readonly graceMs: number;
  /** Enables a trigger left disabled while CLOSED; without it the watchdog only looks at OPEN trips. */
  readonly repair?: TriggerRepairDeps;
  /** Probed while OPEN (downstream health on the approval page); absent: no probes. */
  readonly sink?: Pick<ActivitySink, 'probe'>;
  /** Maintenance mode: no repair while in force (or unreadable), and the trigger is held off. */
  readonly maintenance?: Pick<MaintenanceRecord, 'current'>;
  /** Saves what waits too long behind a checkpoint (G7); absent: no guard. */
  readonly retentionGuard?: RetentionGuardDeps;
}

export type WatchdogResult =
  | {
      readonly action: 'none';
      readonly reason: 'closed' | 'grace' | 'orchestration-running' | 'maintenance';
    }
  | { readonly action: 'repaired'; readonly tripId: string | undefined }
  | { readonly action: 'checked'; readonly result: StartResult };

/**
 * One watchdog tick: an OPEN or HALF_OPEN trip with no live orchestration gets one; a CLOSED episode
 * whose trigger is still disabled gets it enabled, unless maintenance mode holds it off on purpose
 * (then a trigger found enabled is disabled again). A store that forgot every trip (tripId undefined,
 * e.g. Redis restarted empty, or a fresh deployment) gets only the forms the breaker never writes
 * repaired: its own `Disabled=true` may be a forgotten trip's, which the emailed link lifts (G5).
 */
export async function runWatchdog(
  deps: WatchdogDeps,
  client: DurableClient,
  logger: Logger,
): Promise<WatchdogResult> {
  const state = await deps.store.getState();
  // Maintenance never hides a trip: an OPEN one still gets its orchestration (and its email) below.
  const maintenance = await readMaintenance(deps.maintenance);
  if (maintenance.kind === 'in' && deps.repair)
    await holdForMaintenance(deps.repair.triggerSwitch, deps.functionName, maintenance.maintenance, logger);
  if (maintenance.kind === 'unknown')
    logger.warn(
      `watchdog: maintenance record unreadable (${maintenance.error}): no trigger repair this tick`,
    );
  const closed = state.state === 'CLOSED';
  if (closed && maintenance.kind !== 'none') return { action: 'none', reason: 'maintenance' };
  if (closed && deps.repair === undefined) return { action: 'none', reason: 'closed' };
  if (deps.clock.now() - state.since < deps.graceMs) return { action: 'none', reason: 'grace' };
  if (closed && deps.repair) {
    // A running orchestration re-reads the store before each ARM write and ends by itself.
    const instance =
      state.tripId === undefined ? undefined : await findInstance(client, breakerInstanceId(state.tripId));
    if (instance && isLive(instance)) return { action: 'none', reason: 'orchestration-running' };
    const repaired = await repairTrigger(
      deps.repair,
      deps.functionName,
      state.tripId,
      deps.clock.now(),
      logger,
    );
    return repaired ? { action: 'repaired', tripId: state.tripId } : { action: 'none', reason: 'closed' };
  }
  if (state.tripId === undefined) return { action: 'none', reason: 'closed' };
  const result = await startBreakerOrchestration(
    client,
    { tripId: state.tripId, functionName: deps.functionName, failuresInWindow: undefined },
    { restartStopped: true },
  );
  if (result.started)
    logger.warn(
      `watchdog: trip ${state.tripId} is ${state.state} without a live orchestration: ` +
        `${result.restarted ? 'restarted' : 'started'} ${result.instanceId}`,
    );
  return { action: 'checked', result };
}
