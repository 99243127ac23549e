import { classifyFailure } from '../sinks/classifyError';
import { isPoisonEventError } from '../hub/errors';
import { ensureError } from '../kernel/ensureError';
import type { EventOutcome } from './eventOutcome';
import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';

/**
 * Writes one decoded event; `remainingMs` bounds the attempts. `retry` false: one attempt only, the
 * per-event retry is skipped.
 */
export type WriteAttempt = (
  reading: SensorReading,
  event: ReceivedEvent,
  remainingMs: number,
  retry: boolean,
) => Promise<
  { ok: true; applied: boolean; attempts: number } | { ok: false; error: unknown; attempts: number }
>;

export interface InOrderOptions {
  /** Stop trying after this many outage-like failures in a row (0 = never: try every event). */
  readonly failFastAfter: number;
  readonly deadlineAt: number;
  readonly now: () => number;
  /** Decodes and validates one event (`decodeEvent`); what it throws makes the event poison, no I/O. */
  readonly decode: (event: ReceivedEvent) => SensorReading;
}

/**
 * Tries the events one after the other, in batch order (G2: within a partition the sink sees sequence
 * order). Poison is found without I/O, so it is told apart even in events not tried. After
 * `failFastAfter` outage-like failures in a row (an event-specific refusal or a success resets the run)
 * the rest are not tried on this run: the downstream is evidently down and the batch will be held.
 * While such a run lasts, the next events get one attempt each: the first event's retries have just
 * shown the downstream down, and retrying each of them too would only hammer it.
 */
export async function tryEventsInOrder(
  events: readonly ReceivedEvent[],
  write: WriteAttempt,
  options: InOrderOptions,
): Promise<EventOutcome[]> {
  const outcomes: EventOutcome[] = [];
  let inARow = 0;
  let stopped: string | undefined;
  for (const event of events) {
    let reading: SensorReading;
    try {
      reading = options.decode(event);
    } catch (error) {
      outcomes.push({ status: 'poison', event, error: ensureError(error) });
      continue;
    }
    const remainingMs = options.deadlineAt - options.now();
    if (stopped === undefined && remainingMs <= 0) stopped = 'the batch deadline passed';
    if (stopped !== undefined) {
      outcomes.push({ status: 'untried', event, why: stopped });
      continue;
    }
    const retry = options.failFastAfter === 0 || inARow === 0;
    const outcome = toOutcome(event, await write(reading, event, remainingMs, retry));
    outcomes.push(outcome);
    inARow = outcome.status === 'failed' && outcome.scope === 'outage' ? inARow + 1 : 0;
    if (options.failFastAfter > 0 && inARow >= options.failFastAfter)
      stopped = `${inARow} outage-like failures in a row`;
  }
  return outcomes;
}

/** The outcome of one tried event (shared with `tryEventsByKey`). */
export function toOutcome(event: ReceivedEvent, result: Awaited<ReturnType<WriteAttempt>>): EventOutcome {
  if (result.ok) return { status: 'processed', event, applied: result.applied, attempts: result.attempts };
  const error = ensureError(result.error);
  // The sink calling the event itself invalid is a poison event, not an outage.
  if (isPoisonEventError(error)) return { status: 'poison', event, error };
  return { status: 'failed', event, error, attempts: result.attempts, scope: classifyFailure(error).scope };
}
