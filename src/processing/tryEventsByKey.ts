import type { EventOutcome } from './eventOutcome';
import { splitIntoLanes } from './keyLanes';
import { eventKey, type ReceivedEvent } from './receivedEvent';
import type { SensorReading } from './sensorReading';
import { type InOrderOptions, toOutcome, type WriteAttempt } from './tryEventsInOrder';

export interface ByKeyOptions extends InOrderOptions {
  /** Most writes in flight at once (at least 1). */
  readonly concurrency: number;
  readonly keyOf: (reading: SensorReading, event: ReceivedEvent) => string;
}

/**
 * Tries the events of different keys concurrently (at most `concurrency` writes in flight) and the
 * events of one key strictly in sequence order (issue 15). The rules of `tryEventsInOrder` keep their
 * meaning, counted in the order writes finish: after `failFastAfter` outage-like failures in a row no
 * new write starts; while such a run lasts, writes get one attempt. An outage-like failure stops its
 * own key: the later events of that key are not tried (`behind` it), so none is applied before it.
 * A refusal about the event itself does not: that event is dead-lettered and never becomes the row.
 * Outcomes come back in batch order.
 */
export async function tryEventsByKey(
  events: readonly ReceivedEvent[],
  write: WriteAttempt,
  options: ByKeyOptions,
): Promise<EventOutcome[]> {
  const outcomes: (EventOutcome | undefined)[] = new Array<EventOutcome | undefined>(events.length);
  const { lanes, poison } = splitIntoLanes(events, options.keyOf);
  for (const p of poison) outcomes[p.position] = { status: 'poison', event: p.event, error: p.error };
  let inARow = 0;
  let stopped: string | undefined;
  let next = 0;

  const runLane = async (lane: (typeof lanes)[number]) => {
    let behind: string | undefined;
    for (const { position, event, reading } of lane) {
      if (behind !== undefined) {
        outcomes[position] = { status: 'untried', event, why: `behind ${behind} of its key`, behind };
        continue;
      }
      const remainingMs = options.deadlineAt - options.now();
      if (stopped === undefined && remainingMs <= 0) stopped = 'the batch deadline passed';
      if (stopped !== undefined) {
        outcomes[position] = { status: 'untried', event, why: stopped };
        continue;
      }
      const retry = options.failFastAfter === 0 || inARow === 0;
      const outcome = toOutcome(event, await write(reading, event, remainingMs, retry));
      outcomes[position] = outcome;
      const outage = outcome.status === 'failed' && outcome.scope === 'outage';
      inARow = outage ? inARow + 1 : 0;
      if (outage) behind = eventKey(event);
      // Another lane may have stopped the batch while this write was in flight: keep the first reason.
      if (options.failFastAfter > 0 && inARow >= options.failFastAfter)
        stopped ??= `${inARow} outage-like failures in a row`;
    }
  };
  // A fixed pool of workers, each taking the next lane: one write in flight per worker.
  const worker = async () => {
    for (let lane = lanes[next++]; lane !== undefined; lane = lanes[next++]) await runLane(lane);
  };
  const workers = Math.max(1, Math.min(options.concurrency, lanes.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes.filter((o): o is EventOutcome => o !== undefined);
}
