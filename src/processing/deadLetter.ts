import type { ReceivedEvent } from './receivedEvent';

/** Why an event was dead-lettered. */
export type DeadLetterReason =
  /** The event itself is invalid. */
  | 'poison'
  /** The sink kept failing (transient errors exhausted, the deadline, or a permanent sink error). */
  | 'failed'
  /** The host's finite retry policy ran out while the circuit was open: dead-lettered rather than lost. */
  | 'retries-exhausted';

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
