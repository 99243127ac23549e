import type { BreakerStateName, BreakerStore, TripRecord } from '../breaker/breakerStore';
import type { TriggerSwitch } from '../control/triggerSwitch';
import type { EmailSender } from '../notify/emailSender';
import { ensureError } from '../processing/errors';
import type { Logger } from '../processing/logger';
import type { Clock } from '../time/clock';
import type { BreakerMessageBuilder } from './breakerMessages';
import type { BreakerNotice } from './breakerNotice';
import type { ControlOutcome } from './breakerStatus';
import { permanentOutcomeOrThrow } from './controlOutcome';

export interface BreakerActivityDeps {
  readonly store: BreakerStore;
  readonly triggerSwitch: TriggerSwitch;
  readonly email: EmailSender;
  readonly messages: BreakerMessageBuilder;
  readonly approvers: readonly string[];
  readonly clock: Clock;
  /** The signed link an approver follows; undefined when links cannot be made. */
  readonly approvalLink: (tripId: string, functionName: string) => string | undefined;
  readonly deadLetterCount: () => Promise<number | undefined>;
}

/** How the store stands for the trip the orchestration was started for. */
export interface OpenTripResult {
  /** `open`: run the whole episode; `half-open`: approval already happened, go to probation; `stale`: the store moved on. */
  readonly status: 'open' | 'half-open' | 'stale';
  readonly state: BreakerStateName;
  readonly currentTripId: string | undefined;
}

export interface StoreSnapshot {
  readonly state: BreakerStateName;
  readonly tripId: string | undefined;
  readonly failuresInWindow: number;
}

export interface TransitionInput {
  readonly from: BreakerStateName;
  readonly to: BreakerStateName;
  readonly tripId: string;
  readonly approvedBy?: string;
}

/**
 * The breaker's activities: every bit of I/O the orchestration does. Each is idempotent, because the
 * orchestration may run one again after a crash or a replaced instance.
 */
export function makeBreakerActivities(deps: BreakerActivityDeps) {
  const audit = async (tripId: string, patch: Partial<Omit<TripRecord, 'tripId'>>, logger: Logger) => {
    try {
      await deps.store.updateTrip(tripId, patch);
    } catch (error) {
      // The audit trail is best effort: it must never stop the breaker from acting.
      logger.warn(`could not update the record of trip ${tripId}: ${ensureError(error).message}`);
    }
  };

  const setTrigger = async (functionName: string, disabled: boolean): Promise<ControlOutcome> => {
    try {
      await deps.triggerSwitch.setDisabled(functionName, disabled);
      return { ok: true };
    } catch (error) {
      return permanentOutcomeOrThrow(error);
    }
  };

  return {
    /** Confirms the trip is the store's current OPEN episode (the trigger made it OPEN atomically). */
    async openTrip(tripId: string): Promise<OpenTripResult> {
      const current = await deps.store.getState();
      const ours = current.tripId === tripId;
      const status = !ours
        ? 'stale'
        : current.state === 'OPEN'
          ? 'open'
          : current.state === 'HALF_OPEN'
            ? 'half-open'
            : 'stale';
      return { status, state: current.state, currentTripId: current.tripId };
    },

    disableTrigger: (functionName: string) => setTrigger(functionName, true),

    async enableTrigger(functionName: string, tripId: string, logger: Logger): Promise<ControlOutcome> {
      const outcome = await setTrigger(functionName, false);
      if (outcome.ok) await audit(tripId, { resumedAt: deps.clock.now() }, logger);
      return outcome;
    },

    async sendEmail(notice: BreakerNotice): Promise<void> {
      const asksApproval = notice.kind === 'tripped' || notice.kind === 'reminder';
      const [trip] = asksApproval
        ? (await deps.store.history(10)).filter((t) => t.tripId === notice.tripId)
        : [];
      const facts = {
        sample: trip?.sample ?? [],
        deadLetterCount: asksApproval ? await deps.deadLetterCount() : undefined,
        approvalLink: asksApproval ? deps.approvalLink(notice.tripId, notice.functionName) : undefined,
      };
      await deps.email.send(deps.messages(notice, facts, deps.approvers));
    },

    /** Compare-and-set on the store; records approval and close facts on the trip. */
    async transition(input: TransitionInput, logger: Logger): Promise<boolean> {
      const now = deps.clock.now();
      const moved = await deps.store.transition(input.from, input.to, input.tripId, now);
      if (moved && input.to === 'HALF_OPEN')
        await audit(input.tripId, { approvedAt: now, approvedBy: input.approvedBy ?? 'unknown' }, logger);
      if (moved && input.to === 'CLOSED') await audit(input.tripId, { closedAt: now }, logger);
      return moved;
    },

    resetWindow: () => deps.store.resetWindow(),

    async readState(): Promise<StoreSnapshot> {
      const now = deps.clock.now();
      const [state, buckets] = await Promise.all([deps.store.getState(), deps.store.windowBuckets(now)]);
      const failuresInWindow = buckets.reduce((sum, b) => sum + b.failures, 0);
      return { state: state.state, tripId: state.tripId, failuresInWindow };
    },
  };
}

export type BreakerActivities = ReturnType<typeof makeBreakerActivities>;
