import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import { boundText } from '../kernel/boundText';
import type { PlannedLetter } from './batchDecision';
import type { DeadLetter, DeadLetterReason, DeadLetterStore } from '../deadLetters/deadLetter';
import { DeadLetterWriteError } from './errors';
import type { ReceivedEvent } from '../hub/receivedEvent';

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
