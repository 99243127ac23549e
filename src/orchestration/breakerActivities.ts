import type { HeldBacklog } from '../backlog/heldBacklog';
import type { BreakerState, BreakerStateName, BreakerStore, TripRecord } from '../breaker/breakerStore';
import type { TriggerSwitch } from '../control/triggerSwitch';
import { setDisabledWithOutcome } from '../control/triggerSwitchOutcome';
import type { EmailSender } from '../notify/emailSender';
import { ensureError } from '../processing/errors';
import type { Logger } from '../processing/logger';
import type { Clock } from '../time/clock';
import type { BreakerMessageBuilder } from './breakerMessages';
import type { BreakerNotice } from './breakerNotice';
import type { ControlOutcome } from './breakerStatus';
import { toControlOutcome } from './controlOutcome';
import { type EpisodeSettings, episodeSettingsOf } from './episodeSettings';

export interface BreakerActivityDeps {
  readonly store: BreakerStore;
  readonly triggerSwitch: TriggerSwitch;
  /** `local`: the switch writes nothing and the soft OPEN state holds the stream. */
  readonly controlMode: 'arm' | 'local';
  readonly email: EmailSender;
  readonly messages: BreakerMessageBuilder;
  readonly clock: Clock;
  readonly deadLetterCount: () => Promise<number | undefined>;
  /** Held events for the trip notice and reminders; never throws (unknown comes back with its reason). */
  readonly heldBacklog?: (peekOldest: boolean) => Promise<HeldBacklog>;
}

/** How the store stands for the trip the orchestration was started for. */
export interface OpenTripResult {
  /** `open`: run the whole episode; `half-open`: approval already happened, go to probation; `stale`: the store moved on. */
  readonly status: 'open' | 'half-open' | 'stale';
  readonly state: BreakerStateName;
  readonly currentTripId: string | undefined;
  /** The settings this episode runs by, recorded in the history with this result. */
  readonly settings: EpisodeSettings;
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
export function makeBreakerActivities(deps: BreakerActivityDeps, episode: EpisodeSettings) {
  const audit = async (tripId: string, patch: Partial<Omit<TripRecord, 'tripId'>>, logger: Logger) => {
    try {
      await deps.store.updateTrip(tripId, patch);
    } catch (error) {
      // The audit trail is best effort: it must never stop the breaker from acting.
      logger.warn(`could not update the record of trip ${tripId}: ${ensureError(error).message}`);
    }
  };

  // Transient failures are thrown (callActivityWithRetry tries again); permanent ones come back as values.
  const setTrigger = async (functionName: string, disabled: boolean): Promise<ControlOutcome> =>
    toControlOutcome(
      await setDisabledWithOutcome(deps.triggerSwitch, deps.controlMode, functionName, disabled),
    );

  return {
    /** Confirms the trip is the store's current OPEN episode (the trigger made it OPEN atomically). */
    async openTrip(tripId: string): Promise<OpenTripResult> {
      const current = await deps.store.getState();
      return {
        status: tripStatus(current, tripId),
        state: current.state,
        currentTripId: current.tripId,
        settings: episodeSettingsOf(episode),
      };
    },

    disableTrigger: (functionName: string) => setTrigger(functionName, true),

    async enableTrigger(functionName: string, tripId: string, logger: Logger): Promise<ControlOutcome> {
      const outcome = await setTrigger(functionName, false);
      if (outcome.ok) await audit(tripId, { resumedAt: deps.clock.now() }, logger);
      return outcome;
    },

    async sendEmail(notice: BreakerNotice, logger: Logger): Promise<void> {
      const asksApproval = notice.kind === 'tripped' || notice.kind === 'reminder';
      const facts = {
        trip: asksApproval ? await findTrip(deps.store, notice.tripId, logger) : undefined,
        // Informative only: a queue hiccup must not hold the email back.
        deadLetterCount: asksApproval ? await deps.deadLetterCount().catch(() => undefined) : undefined,
        // Sent while OPEN: the host's receivers are stopped, so the oldest held event is peeked.
        ...(asksApproval && deps.heldBacklog ? { held: await deps.heldBacklog(true) } : {}),
        now: deps.clock.now(),
      };
      await deps.email.send(deps.messages(notice, facts));
    },

    /** Compare-and-set on the store; records approval and close facts on the trip. */
    async transition(input: TransitionInput, logger: Logger): Promise<boolean> {
      const now = deps.clock.now();
      // Idempotent: a retry after a move that succeeded (but whose answer was lost) finds it done.
      const moved =
        (await deps.store.transition(input.from, input.to, input.tripId, now)) ||
        isAt(await deps.store.getState(), input.to, input.tripId);
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

function tripStatus(current: BreakerState, tripId: string): OpenTripResult['status'] {
  if (current.tripId !== tripId) return 'stale';
  if (current.state === 'OPEN') return 'open';
  return current.state === 'HALF_OPEN' ? 'half-open' : 'stale';
}

const isAt = (current: BreakerState, state: BreakerStateName, tripId: string) =>
  current.state === state && current.tripId === tripId;

/** How far back the audit trail is searched for the trip of a notice. */
const TRIP_LOOKUP_LIMIT = 20;

async function findTrip(
  store: BreakerStore,
  tripId: string,
  logger: Logger,
): Promise<TripRecord | undefined> {
  try {
    return (await store.history(TRIP_LOOKUP_LIMIT)).find((t) => t.tripId === tripId);
  } catch (error) {
    logger.warn(`could not read the record of trip ${tripId}: ${ensureError(error).message}`);
    return undefined;
  }
}

export type BreakerActivities = ReturnType<typeof makeBreakerActivities>;
