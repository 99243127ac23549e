import { parseSwitchOutcome } from '../control/parseSwitchOutcome';
import type { TriggerSwitchOutcome } from '../control/triggerSwitchOutcome';
import { checkPersonName } from '../kernel/personName';

/**
 * The breaker orchestration's input, custom status and external event: the shapes the trigger,
 * watchdog, approval page and status page share with the orchestrator.
 */

/** What the orchestration is started with (one instance per trip). */
export interface BreakerOrchestrationInput {
  readonly tripId: string;
  readonly functionName: string;
  /** Failures in the window when the breaker tripped; undefined when started by the watchdog. */
  readonly failuresInWindow: number | undefined;
}

/** Payload of the `Approval` external event. */
export interface ApprovalEventData {
  readonly tripId: string;
  readonly approvedBy: string;
}

/**
 * Readable phases for the status page, in the order an episode goes through them (the one list).
 * `superseded` means the store moved on without this orchestration (a newer trip, or a manual reset).
 */
export const BREAKER_PHASES = [
  'opening',
  'disabling',
  'notifying',
  'awaiting-approval',
  'resuming',
  'probation',
  'closed',
  'superseded',
] as const;
export type BreakerPhase = (typeof BREAKER_PHASES)[number];

/** The phase in which the orchestration waits for an approval. */
export const AWAITING_APPROVAL = 'awaiting-approval' satisfies BreakerPhase;

/**
 * The phases in which an approval is taken: the wait itself, and `notifying`, the time between the
 * trip email leaving and the orchestrator's next episode. The link exists only once the email is
 * sent, and on the real Durable extension that episode can come many seconds later (queue polling
 * backs off to `maxQueuePollingInterval`, 30 s by default), so an operator who clicks at once would
 * otherwise be told "not waiting". The Durable runtime buffers an event raised before
 * `waitForExternalEvent`, and the orchestrator takes it when it starts waiting.
 */
export const APPROVABLE_PHASES: readonly BreakerPhase[] = ['notifying', AWAITING_APPROVAL];

/** Phases reached only through an approval (a link for such an episode was used already). */
export const APPROVED_PHASES: readonly BreakerPhase[] = ['resuming', 'probation', 'closed'];

/** Phases after which an approval changes nothing: approved ones, and an episode that ended early. */
export const PHASES_AFTER_APPROVAL: readonly BreakerPhase[] = [...APPROVED_PHASES, 'superseded'];

/** `setCustomStatus` payload and the orchestration's output. Times are ISO strings. */
export interface BreakerStatus {
  readonly phase: BreakerPhase;
  readonly tripId: string;
  readonly functionName: string;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly remindersSent: number;
  /** A transient failure shows only after every retry is spent; `soft`: the soft OPEN state holds the stream. */
  readonly disable?: TriggerSwitchOutcome;
  readonly enable?: TriggerSwitchOutcome;
  readonly approvedBy?: string;
  readonly approvedAt?: string;
  /** Last email that could not be sent (the orchestration carries on without it). */
  readonly emailError?: string;
  /** Last webhook that could not be posted (the orchestration carries on without it). */
  readonly webhookError?: string;
  /** Events the retention guard had saved that reached the sink before the re-enable. */
  readonly savedDrained?: number;
  /** Why the saved events could not be drained: the trigger stays disabled, the watchdog tries again. */
  readonly drainError?: string;
  /** Why the orchestration ended early, for `superseded`. */
  readonly detail?: string;
}

/** Reads an `Approval` payload; anything malformed is treated as not for this trip. */
export function parseApprovalEvent(value: unknown): ApprovalEventData | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { tripId, approvedBy } = value as Record<string, unknown>;
  if (typeof tripId !== 'string' || tripId === '') return undefined;
  // Whoever raised the event, the name reaches logs, the audit record and emails: the shared name rule.
  const name = checkPersonName(typeof approvedBy === 'string' ? approvedBy : undefined);
  return { tripId, approvedBy: name.ok ? name.name : 'unknown' };
}

/**
 * Reads the custom status of an instance (from `getStatus`), or undefined when it is not ours. Its
 * switch outcomes go through parseSwitchOutcome: one not in the current shape reads as unknown.
 */
export function parseBreakerStatus(value: unknown): BreakerStatus | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { phase, tripId, disable, enable } = value as Record<string, unknown>;
  const known = (BREAKER_PHASES as readonly unknown[]).includes(phase);
  if (!known || typeof tripId !== 'string') return undefined;
  return {
    ...(value as BreakerStatus),
    ...(disable === undefined ? {} : { disable: parseSwitchOutcome(disable, true) }),
    ...(enable === undefined ? {} : { enable: parseSwitchOutcome(enable, false) }),
  };
}
