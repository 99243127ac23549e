import type { ReceivedEvent } from '../hub/receivedEvent';

/**
 * Why an event was dead-lettered (the one list; the redrive schema and the demo read it):
 * - `poison`: the event itself is invalid (not JSON, wrong schema, the sink calls it invalid);
 * - `failed`: the sink refused this event itself (a 4xx naming it, a conflict the retries could not
 *   settle); under the bench's `dead-letter` outage policy also an outage-like failure while CLOSED;
 * - `isolated`: an outage-like failure that kept failing alone (others got through) after the set
 *   number of host re-runs of its batch;
 * - `retries-exhausted`: the host's finite retry policy ran out while the batch was held (an outage
 *   or an open circuit): dead-lettered rather than let the checkpoint move past it;
 * - `future-timestamp`: the reading is dated further ahead of its event's enqueued time than
 *   READING_MAX_FUTURE_SKEW_SECONDS (a gateway's clock is wrong); as permanent as poison: the
 *   redrive parks it, since the same check refuses it again.
 */
export const deadLetterReasons = [
  'poison',
  'failed',
  'isolated',
  'retries-exhausted',
  'future-timestamp',
] as const;
export type DeadLetterReason = (typeof deadLetterReasons)[number];

export interface DeadLetter {
  readonly event: ReceivedEvent;
  readonly functionName: string;
  readonly reason: DeadLetterReason;
  readonly error: { readonly name: string; readonly code: string | undefined; readonly message: string };
  readonly attempts: number;
  readonly deadLetteredAt: string;
  readonly invocationId: string;
}

/** Durable store of events that could not be processed, with enough metadata to replay them. */
export interface DeadLetterStore {
  /** Stores every letter or throws; a partial failure throws too (stored letters are idempotent). */
  write(letters: readonly DeadLetter[]): Promise<void>;
}
