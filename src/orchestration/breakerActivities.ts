import { failuresIn } from '../breaker/breakerPolicy';
import {
  type BreakerState,
  type BreakerStateName,
  type BreakerStore,
  type TripRecord,
} from '../breaker/breakerStore';
import { parseSwitchOutcome } from '../control/parseSwitchOutcome';
import type { TriggerSwitch } from '../control/triggerSwitch';
import { setDisabledWithOutcome, type TriggerSwitchOutcome } from '../control/triggerSwitchOutcome';
import type { HeldBacklog } from '../hub/heldBacklog';
import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import { describeMaintenance, HELD_BY_MAINTENANCE, type MaintenanceRecord } from '../maintenance/maintenance';
import type { BreakerChannel } from '../notify/breakerChannel';
import type { BreakerNotice, NoticeFacts } from '../notify/breakerNotice';
import type { NoticeOutcome } from '../notify/noticeChannel';
import type { NoticeLedger } from '../notify/noticeLedger';
import { type EpisodeNumbers, type EpisodeSettings, episodeSettingsOf } from './episodeSettings';
import { sendNoticeOnce } from './noticeOnce';

export interface BreakerActivityDeps {
  readonly store: BreakerStore;
  readonly triggerSwitch: TriggerSwitch;
  /** `local`: the switch writes nothing and the soft OPEN state holds the stream. */
  readonly controlMode: 'arm' | 'local';
  /** The channels notices go out on, in sending order; one whose settings are absent is not in it. */
  readonly channels: readonly BreakerChannel[];
  readonly clock: Clock;
  readonly deadLetterCount: () => Promise<number | undefined>;
  /** Held events for the trip notice and reminders; never throws (unknown comes back with its reason). */
  readonly heldBacklog?: (peekOldest: boolean) => Promise<HeldBacklog>;
  /** What was sent per trip, kind and channel; without it a re-run after a kill sends again. */
  readonly notices?: NoticeLedger;
  /** Maintenance mode: while in force, an approval does not enable the trigger; leaving maintenance does. */
  readonly maintenance?: Pick<MaintenanceRecord, 'current'>;
  /** Writes the events the retention guard saved to the sink (before the re-enable); absent: none. */
  readonly drainSaved?: (logger: Logger) => Promise<DrainOutcome>;
}

/** What Breaker_DrainSaved did: the saved events that reached the sink and were removed. */
export interface DrainOutcome {
  readonly drained: number;
  readonly dead: number;
}

export type { NoticeOutcome };

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

/** An ARM write the activity did not make: the store no longer stands where the episode expects. */
export interface SkippedWrite {
  readonly skipped: string;
}

export type GuardedControl = TriggerSwitchOutcome | SkippedWrite;

export const isSkippedWrite = (value: GuardedControl): value is SkippedWrite => 'skipped' in value;

/** A switch activity's result as the orchestrator reads it back from the history: `disabled` is the switch asked. */
export function readGuardedControl(value: unknown, disabled: boolean): GuardedControl {
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<SkippedWrite>).skipped === 'string'
  )
    return { skipped: (value as SkippedWrite).skipped };
  return parseSwitchOutcome(value, disabled);
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
export function makeBreakerActivities(deps: BreakerActivityDeps, episode: EpisodeNumbers) {
  const audit = async (tripId: string, patch: Partial<Omit<TripRecord, 'tripId'>>, logger: Logger) => {
    try {
      await deps.store.updateTrip(tripId, patch);
    } catch (error) {
      // The audit trail is best effort: it must never stop the breaker from acting.
      logger.warn(`could not update the record of trip ${tripId}: ${ensureError(error).message}`);
    }
  };

  const noticeFacts = async (notice: BreakerNotice, logger: Logger): Promise<NoticeFacts> => {
    const asksApproval = notice.kind === 'tripped' || notice.kind === 'reminder';
    return {
      trip: asksApproval ? await findTrip(deps.store, notice.tripId, logger) : undefined,
      // Informative only: a queue hiccup must not hold the notice back.
      deadLetterCount: asksApproval ? await deps.deadLetterCount().catch(() => undefined) : undefined,
      // Sent while OPEN: the host's receivers are stopped, so the oldest held event is peeked.
      ...(asksApproval && deps.heldBacklog ? { held: await deps.heldBacklog(true) } : {}),
      now: deps.clock.now(),
    };
  };

  // Transient failures are thrown (callActivityWithRetry tries again); permanent ones come back as values.
  const setTrigger = (functionName: string, disabled: boolean): Promise<TriggerSwitchOutcome> =>
    setDisabledWithOutcome(deps.triggerSwitch, deps.controlMode, functionName, disabled);

  /**
   * Sends a notice on the channel of that name, at most once per trip, kind and channel as far as the
   * ledger can tell. A refusal comes back as a value, as does a channel not in the list (its settings
   * are absent); transient failures are thrown.
   */
  const sendNotice = async (
    channelName: string,
    notice: BreakerNotice,
    logger: Logger,
  ): Promise<NoticeOutcome> => {
    const channel = deps.channels.find((c) => c.name === channelName);
    if (channel === undefined)
      return { ok: false, code: `${channelName.toUpperCase()}_NOT_CONFIGURED`, message: `no ${channelName}` };
    const outcome = await sendNoticeOnce(deps, notice, channel, () => noticeFacts(notice, logger), logger);
    return outcome === 'already-sent' ? { ok: true } : outcome;
  };

  return {
    /** Confirms the trip is the store's current OPEN episode (the trigger made it OPEN atomically). */
    async openTrip(tripId: string): Promise<OpenTripResult> {
      const current = await deps.store.getState();
      return {
        status: tripStatus(current, tripId),
        state: current.state,
        currentTripId: current.tripId,
        settings: episodeSettingsOf(
          episode,
          deps.channels.map((c) => c.name),
        ),
      };
    },

    /**
     * Disables only while the store is OPEN for this very trip, read right before the write (and again
     * on every retry): a forced reset while a disable was being retried must not be undone by it.
     */
    async disableTrigger(functionName: string, tripId: string): Promise<GuardedControl> {
      const current = await deps.store.getState();
      if (!isAt(current, 'OPEN', tripId)) return { skipped: describe(current) };
      return setTrigger(functionName, true);
    },

    /**
     * Never enables while the store is OPEN: that trip's orchestration holds the trigger off; nor in
     * maintenance mode, which only leaving it ends (a trip's approval is not a leave). `record`
     * false leaves the trip's record alone (an episode making sure it left nothing disabled).
     */
    async enableTrigger(
      functionName: string,
      tripId: string,
      logger: Logger,
      options: { readonly record: boolean } = { record: true },
    ): Promise<GuardedControl> {
      const current = await deps.store.getState();
      if (current.state === 'OPEN') return { skipped: describe(current) };
      // Read on every attempt; unreadable throws, so the retry asks again (never enables blind).
      const maintenance = await deps.maintenance?.current();
      if (maintenance !== undefined) {
        // A refusal the operators must act on: the episode goes on to probation, the email says why.
        const message = describeMaintenance(maintenance);
        logger.warn(`did not enable the trigger for trip ${tripId}: ${message}`);
        return { kind: 'failed', disabled: false, code: HELD_BY_MAINTENANCE, retryable: false, message };
      }
      const outcome = await setTrigger(functionName, false);
      if (outcome.kind !== 'failed' && options.record)
        await audit(tripId, { resumedAt: deps.clock.now() }, logger);
      return outcome;
    },

    sendNotice,

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

    /** Idempotent: a re-run starts from the oldest saved blob still there (repeats, never skips). */
    drainSaved: (logger: Logger): Promise<DrainOutcome> =>
      deps.drainSaved ? deps.drainSaved(logger) : Promise.resolve({ drained: 0, dead: 0 }),

    async readState(): Promise<StoreSnapshot> {
      const now = deps.clock.now();
      const [state, buckets] = await Promise.all([deps.store.getState(), deps.store.windowBuckets(now)]);
      const failuresInWindow = failuresIn(buckets);
      return { state: state.state, tripId: state.tripId, failuresInWindow };
    },
  };
}

function tripStatus(current: BreakerState, tripId: string): OpenTripResult['status'] {
  if (current.tripId !== tripId) return 'stale';
  if (current.state === 'OPEN') return 'open';
  return current.state === 'HALF_OPEN' ? 'half-open' : 'stale';
}

const describe = (current: BreakerState) =>
  `the store is ${current.state} with trip ${current.tripId ?? 'none'}`;

const isAt = (current: BreakerState, state: BreakerStateName, tripId: string) =>
  current.state === state && current.tripId === tripId;

async function findTrip(
  store: BreakerStore,
  tripId: string,
  logger: Logger,
): Promise<TripRecord | undefined> {
  try {
    return await store.trip(tripId);
  } catch (error) {
    logger.warn(`could not read the record of trip ${tripId}: ${ensureError(error).message}`);
    return undefined;
  }
}

export type BreakerActivities = ReturnType<typeof makeBreakerActivities>;
