import type { TripRecord } from '../breaker/breakerStore';
import { parseSwitchOutcome } from '../control/parseSwitchOutcome';
import type { TriggerSwitchOutcome } from '../control/triggerSwitchOutcome';
import type { HeldBacklog } from '../hub/heldBacklog';

/**
 * What the orchestrator asks the email activity to say. The activity adds what only I/O can know
 * (recent errors, dead-letter count, the signed approval link) before a template renders it.
 */
export type BreakerNotice =
  | (NoticeBase & {
      readonly kind: 'tripped';
      readonly failuresInWindow: number | undefined;
      readonly disable: TriggerSwitchOutcome;
    })
  | (NoticeBase & {
      readonly kind: 'reminder';
      readonly reminder: number;
      readonly maxReminders: number;
      readonly disable: TriggerSwitchOutcome;
    })
  | (NoticeBase & {
      readonly kind: 'resumed';
      readonly approvedBy: string;
      readonly enable: TriggerSwitchOutcome;
    })
  | (NoticeBase & { readonly kind: 'enable-failed'; readonly approvedBy: string; readonly message: string })
  | (NoticeBase & {
      /** Approved, but the events saved before the retention could not be written yet: the trigger stays off. */
      readonly kind: 'drain-failed';
      readonly approvedBy: string;
      readonly message: string;
      readonly retryMinutes: number;
      readonly maxRetryMinutes: number;
    })
  | (NoticeBase & { readonly kind: 'closed' });

interface NoticeBase {
  readonly tripId: string;
  readonly functionName: string;
  /** Orchestration time of the notice, ISO. */
  readonly at: string;
}

/**
 * A notice as the email and webhook activities receive it (their input, from the queue message the
 * orchestration wrote): its switch outcome is read through parseSwitchOutcome, so one that is not a
 * TriggerSwitchOutcome renders as unknown, never as switched.
 */
export function readNotice(input: Readonly<Record<string, unknown>>): BreakerNotice {
  const notice = input as unknown as BreakerNotice;
  switch (notice.kind) {
    case 'tripped':
    case 'reminder':
      return { ...notice, disable: parseSwitchOutcome(input.disable, true) };
    case 'resumed':
      return { ...notice, enable: parseSwitchOutcome(input.enable, false) };
    default:
      return notice;
  }
}

/** Facts the email activity looks up before rendering a notice. */
export interface NoticeFacts {
  /** The store's record of the trip (sample of errors, cause); undefined when it cannot be found. */
  readonly trip: TripRecord | undefined;
  readonly deadLetterCount: number | undefined;
  /** What the hub holds behind the checkpoints (trip notices and reminders only). */
  readonly held?: HeldBacklog;
  /** Wall-clock time of sending: approval links expire relative to it. */
  readonly now: number;
}
