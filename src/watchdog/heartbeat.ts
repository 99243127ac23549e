import type { BreakerStore } from '../breaker/breakerStore';
import { isTriggerDisabled, type TriggerSwitch } from '../control/triggerSwitch';
import type { ConsumerProgress } from '../hub/consumerProgress';
import { emitEvent } from '../kernel/appEvent';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../kernel/logger';
import type { MaintenanceRecord } from '../maintenance/maintenance';
import type { RetentionFigures } from '../retention/retentionFigures';

export interface HeartbeatDeps {
  readonly store: Pick<BreakerStore, 'getState'>;
  readonly triggerSwitch: Pick<TriggerSwitch, 'readSwitch'>;
  readonly deadLetterCount: () => Promise<number | undefined>;
  readonly clock: Clock;
  readonly functionName: string;
  /** Consumer lag and stall (HEARTBEAT_READS_BACKLOG); absent: both fields null. */
  readonly consumerProgress?: () => Promise<ConsumerProgress>;
  /** Maintenance mode; absent: maintenanceSeconds null. */
  readonly maintenance?: Pick<MaintenanceRecord, 'current'>;
}

/**
 * One heartbeat line: breaker state, how long it has been OPEN (events are held that long), whether
 * the trigger is disabled, dead letters waiting, whether the store answered, and the consumer's lag
 * and stall, how long maintenance mode has held the trigger off, and from the retention guard's last
 * run (`retention`, absent when the guard is off) the time until the first loss and what it saved. Each read fails on
 * its own (null), and the line is written whatever fails: a missing heartbeat would itself hide an
 * outage. Never throws.
 */
export async function emitHeartbeat(
  deps: HeartbeatDeps,
  logger: Logger,
  retention?: RetentionFigures,
): Promise<void> {
  const [state, disabled, deadLetters, progress, maintenance] = await Promise.all([
    deps.store.getState().catch(() => undefined),
    isTriggerDisabled(deps.triggerSwitch, deps.functionName).catch(() => undefined),
    deps.deadLetterCount().catch(() => undefined),
    deps.consumerProgress?.().catch(() => undefined),
    deps.maintenance?.current().catch(() => undefined),
  ]);
  const now = deps.clock.now();
  emitEvent(logger, 'log', 'heartbeat', {
    state: state?.state ?? null,
    tripId: state?.tripId ?? null,
    openSeconds: state?.state === 'OPEN' ? Math.max(0, Math.round((now - state.since) / 1000)) : 0,
    triggerDisabled: disabled ?? null,
    deadLetters: deadLetters ?? null,
    storeReachable: state !== undefined,
    waitingEvents: progress?.waitingEvents ?? null,
    stalledSeconds: progress?.stalledSeconds ?? null,
    // Seconds in maintenance, null when not (the disabled and stalled alerts leave it alone).
    maintenanceSeconds:
      maintenance === undefined ? null : Math.max(0, Math.round((now - maintenance.since) / 1000)),
    // Until the hub drops the oldest waiting event (negative: already dropping); null when nothing waits.
    timeToFirstLossSeconds:
      retention?.firstLossAt === undefined ? null : Math.round((retention.firstLossAt - now) / 1000),
    savedEvents: retention?.saved ?? null,
  });
}
