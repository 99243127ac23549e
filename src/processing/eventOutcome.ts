/**
 * What happened to each event of a run, and the bookkeeping that follows from it: the failures the
 * breaker's window counts (and how much a held one weighs), the dead letters (bounded text, stored or
 * the batch held), and the log lines of a run.
 */
import type { DeadLetter, DeadLetterReason, DeadLetterStore } from '../deadLetters/deadLetter';
import { eventKey, type ReceivedEvent } from '../hub/receivedEvent';
import { emitEvent } from '../kernel/appEvent';
import { boundText } from '../kernel/boundText';
import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { FailureSample } from '../kernel/failureSample';
import type { Logger } from '../kernel/logger';
import { classifyError, classifyFailure, type FailureScope, serviceCodeOf } from '../sinks/classifyError';
import { DeadLetterWriteError } from './errors';

/** An event the batch decision dead-letters, and why. */
export interface PlannedLetter {
  readonly outcome: Exclude<EventOutcome, { status: 'processed' }>;
  readonly reason: DeadLetterReason;
}

/** What happened to one event of a batch on this run. */
export type EventOutcome =
  | {
      readonly status: 'processed';
      readonly event: ReceivedEvent;
      readonly applied: boolean;
      readonly attempts: number;
      /**
       * Key mode: not written because a later reading of its key in this batch superseded
       * it (the event key of that reading), which was written; `applied` is false, `attempts` 0.
       */
      readonly supersededBy?: string;
    }
  | { readonly status: 'poison'; readonly event: ReceivedEvent; readonly error: Error }
  | {
      readonly status: 'failed';
      readonly event: ReceivedEvent;
      readonly error: Error;
      readonly attempts: number;
      /** `outage`: any event would fail alike (hold); `event`: this event was refused (dead-letter). */
      readonly scope: FailureScope;
    }
  /** Not tried on this run: the batch failed fast, or its deadline passed. Held like an outage failure. */
  | {
      readonly status: 'untried';
      readonly event: ReceivedEvent;
      readonly why: string;
      /**
       * Key mode: not tried because an earlier event of its key failed outage-like on this
       * run (the event key of that failure); it is held, or dead-lettered, together with it, in order.
       */
      readonly behind?: string;
    };

/** Sample messages in the trip record and emails, and log lines: short, and never more than one line. */
const SAMPLE_MESSAGE_LENGTH = 200;
const LOG_MESSAGE_LENGTH = 300;

/**
 * Failures reported to the breaker window: failed events, and events not tried because of them. An
 * event that waited behind a failure of its key counts only while nothing got through (`countBehind`):
 * otherwise one bad event would count once per later reading of its key.
 */
export function failureSamples(outcomes: readonly EventOutcome[], countBehind = true): FailureSample[] {
  return outcomes.flatMap((o): FailureSample[] => {
    if (o.status === 'failed')
      return [
        {
          eventKey: eventKey(o.event),
          kind: classifyError(o.error),
          message: boundText(o.error.message, SAMPLE_MESSAGE_LENGTH),
        },
      ];
    if (o.status === 'untried' && (countBehind || o.behind === undefined))
      return [{ eventKey: eventKey(o.event), kind: 'transient', message: `not tried: ${o.why}` }];
    return [];
  });
}

/** Counting a held event for longer than this adds nothing: it exceeds any sensible window. */
const MAX_HELD_SECONDS = 60;

/**
 * How many times each failure of a run counts. A batch held because nothing gets through counts each of
 * its events once per second until the host's next re-run: the events are kept from the downstream for
 * that long. Before holding, each second's new events failed and counted; now the same events wait,
 * and the window still sees about one failure per held event per second, from the first run on, so the
 * breaker trips at least as soon as before. Otherwise (the downstream took other writes, or the batch
 * completes) each failure counts once.
 */
export function heldFailureWeight(heldAsOutage: boolean, nextRerunDelayMs: number | undefined): number {
  if (!heldAsOutage || nextRerunDelayMs === undefined) return 1;
  return Math.min(MAX_HELD_SECONDS, Math.max(1, Math.round(nextRerunDelayMs / 1000)));
}

/**
 * The samples repeated `weight` times. The stores count `length` and keep the last few as the trip's
 * sample, so the batch's own order is kept at the end (no duplicates in the sample).
 */
export function weighted(samples: readonly FailureSample[], weight: number): readonly FailureSample[] {
  if (weight <= 1) return samples;
  return Array.from({ length: samples.length * weight }, (_, i) => samples[i % samples.length]).filter(
    (s): s is FailureSample => s !== undefined,
  );
}

/**
 * One line per dead letter, one for the whole batch when the host's retries ran out, and one
 * DeadLettered event per partition and reason.
 */
export function logDeadLetters(logger: Logger, letters: readonly PlannedLetter[]): void {
  const groups = new Map<string, { reason: string; partitionId: string | null; events: number }>();
  for (const { outcome, reason } of letters) {
    const partitionId = outcome.event.partitionId ?? null;
    const key = `${reason}/${partitionId ?? ''}`;
    const group = groups.get(key) ?? { reason, partitionId, events: 0 };
    groups.set(key, { ...group, events: group.events + 1 });
  }
  for (const group of groups.values()) emitEvent(logger, 'warn', 'deadLettered', group);
  const exhausted = letters.filter((l) => l.reason === 'retries-exhausted').length;
  if (exhausted > 0)
    logger.error(`host retries exhausted while the batch was held: dead-lettered ${exhausted} event(s)`);
  for (const { outcome: o, reason } of letters) {
    if (reason === 'retries-exhausted') continue;
    const attempts = o.status === 'failed' ? ` after ${o.attempts} attempt(s)` : '';
    const message =
      o.status === 'untried' ? `not tried: ${o.why}` : boundText(o.error.message, LOG_MESSAGE_LENGTH);
    logger.warn(`dead-lettered ${reason} event ${eventKey(o.event)}${attempts}: ${message}`);
  }
}

/** The stable code of the log line for a request the storage service refused as the app built it. */
export const STORAGE_REQUEST_INVALID = 'STORAGE_REQUEST_INVALID';

/**
 * One error line per run when the storage service refused requests as the app built them (rule
 * `request-invalid`): a bug in the app, not in the events, so the batch is held and someone must look.
 */
export function logInvalidRequests(logger: Logger, outcomes: readonly EventOutcome[]): void {
  const refused = outcomes.filter(
    (o): o is Extract<EventOutcome, { status: 'failed' }> =>
      o.status === 'failed' && classifyFailure(o.error).rule === 'request-invalid',
  );
  const [first] = refused;
  if (!first) return;
  const code = serviceCodeOf(first.error) ?? '?';
  logger.error(
    `${STORAGE_REQUEST_INVALID}: the storage service refused a request the app built (${code}) for ${refused.length} event(s), first ${eventKey(first.event)}: ${boundText(first.error.message, LOG_MESSAGE_LENGTH)}; holding the batch (a bug in the app, not in the events)`,
  );
}

/**
 * Bounds of text built from an event (a validation message quotes it; a sink error may too): a dead
 * letter must always fit its queue message, and a log line must stay one short line.
 */
const DEAD_LETTER_MESSAGE_LENGTH = 1_000;
const ERROR_NAME_LENGTH = 100;
const logText = (text: string) => boundText(text, 300);

/** Where a batch's dead letters come from and go: the function, its invocation, the store. */
export interface LetterContext {
  readonly functionName: string;
  readonly clock: Clock;
  readonly invocationId: string;
  readonly deadLetters: DeadLetterStore;
  readonly logger: Logger;
}

/** Stores the batch's letters; a store that fails holds the batch (DeadLetterWriteError), never drops it. */
export async function writeDeadLetters(c: LetterContext, letters: readonly DeadLetter[]): Promise<void> {
  if (letters.length === 0) return;
  try {
    await c.deadLetters.write(letters);
  } catch (error) {
    const cause = ensureError(error);
    c.logger.error(`dead-letter store failed, holding the batch: ${logText(cause.message)}`);
    throw new DeadLetterWriteError(
      `could not store ${letters.length} dead letter(s): ${logText(cause.message)}`,
      { cause },
    );
  }
}

/** The letter for an event the batch decision dead-letters (an untried event names why it was not). */
export function plannedToDeadLetter(c: LetterContext, letter: PlannedLetter): DeadLetter {
  const o = letter.outcome;
  const error = o.status === 'untried' ? new Error(`not tried: ${o.why}`) : o.error;
  const attempts = o.status === 'failed' ? o.attempts : 0;
  return toDeadLetter(c, o.event, letter.reason, error, attempts);
}

/** A dead letter with the error's text bounded, so it fits its queue message whatever the event held. */
export function toDeadLetter(
  c: LetterContext,
  event: ReceivedEvent,
  reason: DeadLetterReason,
  error: Error,
  attempts: number,
): DeadLetter {
  const code = (error as { code?: unknown }).code;
  return {
    event,
    functionName: c.functionName,
    reason,
    error: {
      name: boundText(error.name, ERROR_NAME_LENGTH),
      code: typeof code === 'string' ? boundText(code, ERROR_NAME_LENGTH) : undefined,
      message: boundText(error.message, DEAD_LETTER_MESSAGE_LENGTH),
    },
    attempts,
    deadLetteredAt: new Date(c.clock.now()).toISOString(),
    invocationId: c.invocationId,
  };
}
