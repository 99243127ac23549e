import type { OrchestrationContext, OrchestrationHandler } from 'durable-functions';
import * as df from 'durable-functions';

import { failedAfterRetries } from '../control/triggerSwitchOutcome';
import { boundText } from '../kernel/boundText';
import { redactSecrets } from '../kernel/redactSecrets';
import type { BreakerNotice } from '../notify/breakerNotice';
import { channelTraits } from '../notify/channelList';
import type { NoticeChannelTraits, NoticeOutcome } from '../notify/noticeChannel';
import { BreakerActivity, type BreakerActivityName, sendActivityName } from './activityNames';
import { awaitApproval, type SideTask, type Steps } from './awaitApproval';
import {
  type DrainOutcome,
  type GuardedControl,
  isSkippedWrite,
  type OpenTripResult,
  readGuardedControl,
  type StoreSnapshot,
  type TransitionInput,
} from './breakerActivities';
import type { BreakerOrchestrationInput, BreakerStatus } from './breakerStatus';
import { type EpisodeNumbers, readEpisodeSettings } from './episodeSettings';
import { checkHistoryVersion } from './historyVersion';
import { parseOrchestrationInput } from './parseOrchestrationInput';
import { sendBeside } from './sendBeside';
import { waitUntilTime } from './waitUntilTime';

export interface BreakerOrchestratorSettings extends EpisodeNumbers {
  /** Retry policy of every activity call (transient failures only reach it); a code constant, not config. */
  readonly retry: {
    readonly firstRetryIntervalMs: number;
    readonly maxAttempts: number;
    /** Growth of the delay between attempts (1 = constant). */
    readonly backoffCoefficient?: number;
  };
}

/**
 * One orchestration per trip (docs/how-it-works.md#the-breaker-orchestration): OPEN → disable → trip notice →
 * wait for approval of THIS trip, with a bounded number of reminders → HALF_OPEN → reset window → enable →
 * "resumed" → after a quiet probation, CLOSED. Deterministic: all I/O in activities, time only from
 * `currentUtcDateTime`, no continueAsNew (so no timer of an earlier generation can fire into a later one).
 */
export function makeBreakerOrchestrator(
  retrySettings: BreakerOrchestratorSettings['retry'],
): OrchestrationHandler {
  const retry = new df.RetryOptions(retrySettings.firstRetryIntervalMs, retrySettings.maxAttempts);
  retry.backoffCoefficient = retrySettings.backoffCoefficient ?? 1;

  return function* breakerOrchestrator(context: OrchestrationContext): Steps<BreakerStatus> {
    const dfx = context.df;
    checkHistoryVersion(dfx.version);
    const input: BreakerOrchestrationInput = parseOrchestrationInput(dfx.getInput());
    const { tripId, functionName } = input;
    const nowIso = () => dfx.currentUtcDateTime.toISOString();
    const log = (message: string) => {
      // Replays re-run this code from the start: log only what happens for the first time.
      if (!dfx.isReplaying) context.log(`breaker ${tripId}: ${message}`);
    };
    let status: BreakerStatus = {
      phase: 'opening',
      tripId,
      functionName,
      startedAt: nowIso(),
      updatedAt: nowIso(),
      remindersSent: 0,
    };
    const publish = (patch: Partial<BreakerStatus>) => {
      status = { ...status, ...patch, updatedAt: nowIso() };
      dfx.setCustomStatus(status);
      return status;
    };
    const call = (name: BreakerActivityName, activityInput?: unknown) =>
      dfx.callActivityWithRetry(name, retry, activityInput);

    /** A switch activity's result, read back from the history; retries spent read as a failure. */
    function* control(
      name: BreakerActivityName,
      activityInput: { readonly functionName: string; readonly tripId: string; readonly record?: boolean },
      disabled: boolean,
    ): Steps<GuardedControl> {
      try {
        return readGuardedControl(yield call(name, activityInput), disabled);
      } catch (error) {
        return failedAfterRetries(disabled, retrySettings.maxAttempts, error);
      }
    }

    // The episode's channels, from its history; sent in this order (the replay checks the order of calls).
    let channels: readonly EpisodeChannel[] = [];
    const lostOn = (channel: EpisodeChannel, notice: BreakerNotice) => (message: string) => {
      // A lost notice must not stop the breaker: the status page still shows the phase.
      log(`could not send the ${notice.kind} ${channel.name}: ${message}`);
      publish({ [channel.statusField]: `${notice.kind}: ${message}` });
    };
    function* send(channel: EpisodeChannel, notice: BreakerNotice): Steps<void> {
      const lost = lostOn(channel, notice);
      try {
        // A refusal comes back as a value (retrying cannot help).
        const outcome = (yield call(channel.activity, notice)) as NoticeOutcome | undefined;
        if (outcome?.ok === false) lost(outcome.message);
      } catch (error) {
        lost(error instanceof Error ? error.message : String(error));
      }
    }
    /** Every channel in turn, each awaited, with the same retry policy and the same rule. */
    function* notify(notice: BreakerNotice): Steps<void> {
      for (const channel of channels) yield* send(channel, notice);
    }
    /** The same, but `beside-wait` channels are started beside the approval wait (never awaited before it). */
    function* notifyBesideWait(notice: BreakerNotice): Steps<SideTask[]> {
      const beside: SideTask[] = [];
      for (const channel of channels) {
        if (channel.timing === 'before-wait') yield* send(channel, notice);
        else beside.push(sendBeside(channel.activity, notice, call, lostOn(channel, notice)));
      }
      return beside;
    }

    const base = () => ({ tripId, functionName, at: nowIso() });

    function* resumeAfterLostStore(approvedBy: string): Steps<BreakerStatus> {
      log('the breaker store has lost this trip: re-enabling on the approval, without probation');
      const enable = yield* control(BreakerActivity.enableTrigger, { functionName, tripId }, false);
      if (isSkippedWrite(enable)) return supersede(`did not enable the trigger: ${enable.skipped}`);
      publish({
        phase: 'closed',
        enable,
        detail: 'the breaker store had lost the trip; re-enabled on approval',
      });
      yield* notify(
        enable.kind === 'failed'
          ? { ...base(), kind: 'enable-failed', approvedBy, message: enable.message }
          : { ...base(), kind: 'resumed', approvedBy, enable },
      );
      return status;
    }
    /**
     * The drain activity until it succeeds, a durable timer between attempts (DRAIN_RETRY_MINUTES). The first
     * failure is told once; before each retry the store is re-read: a newer trip or a forced reset ends the
     * episode, a store that lost every trip (Redis restarted empty) still drains, then resumes without
     * probation. Ending here instead (as 0.3 did) stranded the trigger: a Completed instance is never
     * restarted, and its link no longer approves (docs/how-it-works.md#the-breaker-orchestration).
     */
    function* drainUntilWritten(): Steps<
      { kind: 'drained' } | { kind: 'store-lost' } | { kind: 'ended'; status: BreakerStatus }
    > {
      let storeLost = false;
      for (let attempt = 0; ; attempt++) {
        try {
          const drained = (yield call(BreakerActivity.drainSaved)) as DrainOutcome;
          if (drained.drained + drained.dead > 0) log(`drained ${drained.drained} saved events to the sink`);
          publish({ savedDrained: (status.savedDrained ?? 0) + drained.drained, drainError: undefined });
          return storeLost ? { kind: 'store-lost' } : { kind: 'drained' };
        } catch (error) {
          // A failed activity's message carries the worker's stack after its first line: keep that line.
          const text = error instanceof Error ? error.message : String(error);
          const message = boundText(redactSecrets(text.split('\n')[0]?.trim() ?? ''), 300);
          const minutes = drainRetryMinutes(attempt);
          log(
            `could not drain the saved events (attempt ${attempt + 1}): ${message}; again in ${minutes} min`,
          );
          publish({ drainError: `attempt ${attempt + 1}: ${message}` });
          if (attempt === 0)
            yield* notify({
              ...base(),
              kind: 'drain-failed',
              approvedBy: status.approvedBy ?? 'unknown',
              message,
              retryMinutes: minutes,
              maxRetryMinutes: DRAIN_RETRY_MINUTES.at(-1) ?? minutes,
            });
          yield* waitUntilTime(dfx, new Date(dfx.currentUtcDateTime.getTime() + minutes * 60_000));
          const now = (yield call(BreakerActivity.readState)) as StoreSnapshot;
          if (now.state === 'CLOSED' && now.tripId === undefined) storeLost = true;
          else if (now.state !== 'HALF_OPEN' || now.tripId !== tripId)
            return {
              kind: 'ended',
              status: supersede(
                `while draining, the store became ${now.state} with trip ${now.tripId ?? 'none'}`,
              ),
            };
        }
      }
    }
    const supersede = (detail: string) => {
      log(`ends as superseded: ${detail}`);
      return publish({ phase: 'superseded', detail });
    };

    publish({ phase: 'opening' });
    const opened = (yield call(BreakerActivity.openTrip, tripId)) as OpenTripResult;
    // From here on the episode's numbers come from the history, not from the current config.
    const settings = readEpisodeSettings(opened.settings);
    channels = settings.channels.map(episodeChannel);
    if (opened.status === 'stale') {
      return supersede(`the store is ${opened.state} with trip ${opened.currentTripId ?? 'none'}`);
    }

    if (opened.status === 'open') {
      publish({ phase: 'disabling' });
      const disable = yield* control(BreakerActivity.disableTrigger, { functionName, tripId }, true);
      // Re-read before every ARM write: a forced reset (or a newer trip) ends this episode here.
      if (isSkippedWrite(disable)) {
        // An earlier attempt may have written the disable before the host restart that the write
        // causes killed it: unless the store is OPEN (another trip holds the trigger), enable it again.
        const undo = yield* control(
          BreakerActivity.enableTrigger,
          { functionName, tripId, record: false },
          false,
        );
        return supersede(`did not disable the trigger: ${disable.skipped}; ${undoneDisable(undo)}`);
      }
      if (disable.kind === 'failed') log(`could not disable the trigger: ${disable.message}`);
      publish({ phase: 'notifying', disable });
      const tripped = yield* notifyBesideWait({
        ...base(),
        kind: 'tripped',
        failuresInWindow: input.failuresInWindow,
        disable,
      });

      // Right after the email: the link it carries must work at once, whatever the webhook does.
      publish({ phase: 'awaiting-approval' });
      const approval = yield* awaitApproval(dfx, {
        tripId,
        maxReminders: settings.maxReminders,
        reminderMinutes: settings.reminderMinutes,
        log,
        alongside: tripped,
        *remind(n) {
          publish({ remindersSent: n });
          log(`no approval yet: reminder ${n} of ${settings.maxReminders}`);
          return yield* notifyBesideWait({
            ...base(),
            kind: 'reminder',
            reminder: n,
            maxReminders: settings.maxReminders,
            disable,
          });
        },
      });
      log(`approved by ${approval.approvedBy}`);
      publish({ phase: 'resuming', approvedBy: approval.approvedBy, approvedAt: nowIso() });
      const toHalfOpen: TransitionInput = {
        from: 'OPEN',
        to: 'HALF_OPEN',
        tripId,
        approvedBy: approval.approvedBy,
      };
      if (!((yield call(BreakerActivity.transition, toHalfOpen)) as boolean)) {
        const now = (yield call(BreakerActivity.readState)) as StoreSnapshot;
        if (now.state === 'CLOSED' && now.tripId === undefined) {
          // The store no longer knows any trip (e.g. Redis restarted without persistence). The
          // operator approved this trip and nothing else would switch the trigger on again.
          return yield* resumeAfterLostStore(approval.approvedBy);
        }
        return supersede(
          `could not move OPEN → HALF_OPEN: the store is ${now.state} with trip ${now.tripId ?? 'none'}`,
        );
      }
      // G5: the window is emptied before the listener starts again.
      yield call(BreakerActivity.resetWindow);
    } else {
      // Restarted after the approval (e.g. by the watchdog): never disable or wait again.
      publish({ phase: 'resuming' });
    }

    if (settings.drainSaved === true) {
      // G2: what the retention guard saved reaches the sink before any later event of its key, so
      // before the listener starts again. A drain that fails is tried again on a durable timer: the
      // episode stays live (and the trigger disabled) until the saved events are written.
      const drained = yield* drainUntilWritten();
      if (drained.kind === 'ended') return drained.status;
      if (drained.kind === 'store-lost') return yield* resumeAfterLostStore(status.approvedBy ?? 'unknown');
    }
    const enable = yield* control(BreakerActivity.enableTrigger, { functionName, tripId }, false);
    if (isSkippedWrite(enable)) return supersede(`did not enable the trigger: ${enable.skipped}`);
    const approvedBy = status.approvedBy ?? 'unknown';
    publish({ phase: 'probation', enable });
    if (enable.kind !== 'failed') {
      yield* notify({ ...base(), kind: 'resumed', approvedBy, enable });
    } else {
      // Probation still runs (the store is HALF_OPEN); the operators are told to switch it on by hand.
      log(`could not enable the trigger: ${enable.message}`);
      yield* notify({ ...base(), kind: 'enable-failed', approvedBy, message: enable.message });
    }

    // Probation is never shorter than its setting, even when the timer completes early.
    yield* waitUntilTime(dfx, new Date(dfx.currentUtcDateTime.getTime() + settings.probationSeconds * 1000));
    const after = (yield call(BreakerActivity.readState)) as StoreSnapshot;
    if (after.tripId !== tripId)
      return supersede(`probation failures tripped a new episode (trip ${after.tripId ?? 'none'})`);
    if (after.state === 'HALF_OPEN') {
      const toClosed: TransitionInput = { from: 'HALF_OPEN', to: 'CLOSED', tripId };
      if ((yield call(BreakerActivity.transition, toClosed)) as boolean) {
        log('probation passed: CLOSED');
        publish({ phase: 'closed' });
        yield* notify({ ...base(), kind: 'closed' });
        return status;
      }
    }
    return supersede(`after probation the store is ${after.state}`);
  };
}

/** Minutes between drain attempts: doubling from one, then every 15 (the drain repeats, never skips). */
export const DRAIN_RETRY_MINUTES = [1, 2, 4, 8, 15] as const;
const drainRetryMinutes = (attempt: number): number =>
  DRAIN_RETRY_MINUTES[Math.min(attempt, DRAIN_RETRY_MINUTES.length - 1)] ?? 15;

function undoneDisable(undo: GuardedControl): string {
  if (isSkippedWrite(undo)) return `left it to the open trip (${undo.skipped})`;
  return undo.kind === 'failed'
    ? `could not make sure it is enabled: ${undo.message}`
    : 'made sure it is enabled';
}

/** A channel as the orchestrator schedules it: its activity, timing and status field. */
interface EpisodeChannel extends NoticeChannelTraits {
  readonly name: string;
  readonly activity: BreakerActivityName;
}

/**
 * By name alone, from the durable traits; a name this build does not know (a history of a newer one)
 * is sent beside the wait, so its failure only shows in its status field.
 */
function episodeChannel(name: string): EpisodeChannel {
  const traits: NoticeChannelTraits = channelTraits(name) ?? {
    timing: 'beside-wait',
    statusField: `${name}Error`,
  };
  return { name, ...traits, activity: sendActivityName(name) as BreakerActivityName };
}
