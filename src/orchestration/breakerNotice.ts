import type { HeldBacklog } from '../hub/heldBacklog';
import type { TripRecord } from '../breaker/breakerStore';
import type { ControlOutcome } from './breakerStatus';

/**
 * What the orchestrator asks the email activity to say. The activity adds what only I/O can know
 * (recent errors, dead-letter count, the signed approval link) before a template renders it.
 */
export type BreakerNotice =
  | (NoticeBase & {
      readonly kind: 'tripped';
      readonly failuresInWindow: number | undefined;
      readonly disable: ControlOutcome;
    })
  | (NoticeBase & {
      readonly kind: 'reminder';
      readonly reminder: number;
      readonly maxReminders: number;
      readonly disable: ControlOutcome;
    })
  | (NoticeBase & { readonly kind: 'resumed'; readonly approvedBy: string; readonly enable: ControlOutcome })
  | (NoticeBase & { readonly kind: 'enable-failed'; readonly approvedBy: string; readonly message: string })
  | (NoticeBase & { readonly kind: 'closed' });

interface NoticeBase {
  readonly tripId: string;
  readonly functionName: string;
  /** Orchestration time of the notice, ISO. */
  readonly at: string;
}

export type BreakerNoticeKind = BreakerNotice['kind'];

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
