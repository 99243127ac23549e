import type { EventOutcome } from './eventOutcome';
import { type LaneEntry, splitIntoLanes } from './keyLanes';
import { eventKey, type ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';
import { type ReadingVersionOf, supersededReadings } from './supersededReadings';
import { type InOrderOptions, toOutcome, type WriteAttempt } from './tryEventsInOrder';

export interface ByKeyOptions extends InOrderOptions {
  /** Most writes in flight at once (at least 1). */
  readonly concurrency: number;
  readonly keyOf: (reading: SensorReading, event: ReceivedEvent) => string;
  /** The sink's newest-wins version: given, readings a later one of their key supersedes are not sent. */
  readonly versionOf?: ReadingVersionOf;
  /** The sink's write group: keys of one group are started side by side. */
  readonly groupOf?: (reading: SensorReading) => string;
}

/**
 * Tries the events of different keys concurrently (at most `concurrency` writes in flight) and the
 * events of one key strictly in sequence order. The rules of `tryEventsInOrder` keep their
 * meaning, counted in the order writes finish: after `failFastAfter` outage-like failures in a row no
 * new write starts; while such a run lasts, writes get one attempt. An outage-like failure stops its
 * own key: the later events of that key are not tried (`behind` it), so none is applied before it.
 * A refusal about the event itself does not: that event is dead-lettered and never becomes the row.
 * With `versionOf`, a reading a later one of its key supersedes is not written (see `runLane`); with
 * `groupOf`, the keys of one write group start in the same turn. Outcomes come back in batch order.
 */
export async function tryEventsByKey(
  events: readonly ReceivedEvent[],
  write: WriteAttempt,
  options: ByKeyOptions,
): Promise<EventOutcome[]> {
  const outcomes: (EventOutcome | undefined)[] = new Array<EventOutcome | undefined>(events.length);
  const { groups, poison } = splitIntoLanes(events, options.decode, options.keyOf, options.groupOf);
  for (const p of poison) outcomes[p.position] = { status: 'poison', event: p.event, error: p.error };
  let inARow = 0;
  let stopped: string | undefined;

  /** Tries one event under the batch's fail-fast and deadline rules. */
  const tryOne = async ({ event, reading }: LaneEntry): Promise<EventOutcome> => {
    const remainingMs = options.deadlineAt - options.now();
    if (stopped === undefined && remainingMs <= 0) stopped = 'the batch deadline passed';
    if (stopped !== undefined) return { status: 'untried', event, why: stopped };
    const retry = options.failFastAfter === 0 || inARow === 0;
    const outcome = toOutcome(event, await write(reading, event, remainingMs, retry));
    const outage = outcome.status === 'failed' && outcome.scope === 'outage';
    inARow = outage ? inARow + 1 : 0;
    // Another lane may have stopped the batch while this write was in flight: keep the first reason.
    if (options.failFastAfter > 0 && inARow >= options.failFastAfter)
      stopped ??= `${inARow} outage-like failures in a row`;
    return outcome;
  };

  const plan = (entries: readonly LaneEntry[]) =>
    options.versionOf ? supersededReadings(entries, options.versionOf) : [];

  const runLane = async (lane: readonly LaneEntry[]) => {
    let todo = lane;
    let skip = plan(todo);
    // Superseded readings wait for the write that supersedes them: only its success makes them
    // processed; a failure holds them with it; a refusal has them planned again with what follows.
    let waiting: LaneEntry[] = [];
    let behind: string | undefined;
    for (let i = 0; i < todo.length; i++) {
      const entry = todo[i];
      if (entry === undefined) continue;
      const { position, event } = entry;
      if (behind !== undefined) {
        outcomes[position] = { status: 'untried', event, why: `behind ${behind} of its key`, behind };
        continue;
      }
      if (skip[i] === true) {
        waiting.push(entry);
        continue;
      }
      const outcome = await tryOne(entry);
      outcomes[position] = outcome;
      const refused =
        outcome.status === 'poison' || (outcome.status === 'failed' && outcome.scope === 'event');
      if (refused) {
        // It never becomes the row: a refusal does not stop its key.
        todo = [...waiting, ...todo.slice(i + 1)];
        skip = plan(todo);
        i = -1;
      } else if (outcome.status === 'failed') {
        behind = eventKey(event);
      }
      if (!refused) for (const w of waiting) outcomes[w.position] = withWriter(w.event, outcome, behind);
      waiting = [];
    }
  };
  await runBounded(inUnits(groups, options.concurrency), options.concurrency, runLane);
  return outcomes.filter((o): o is EventOutcome => o !== undefined);
}

/** The outcome of a superseded reading, from that of the write that superseded it. */
function withWriter(event: ReceivedEvent, writer: EventOutcome, behind: string | undefined): EventOutcome {
  if (writer.status === 'processed')
    return { status: 'processed', event, applied: false, attempts: 0, supersededBy: eventKey(writer.event) };
  if (behind !== undefined) return { status: 'untried', event, why: `behind ${behind} of its key`, behind };
  return { status: 'untried', event, why: writer.status === 'untried' ? writer.why : 'not tried' };
}

/** A write group's lanes in pieces that fit the bound (a group larger than it goes in turns). */
function inUnits<T>(groups: readonly (readonly T[])[], concurrency: number): T[][] {
  const size = Math.max(1, concurrency);
  return groups.flatMap((group) =>
    Array.from({ length: Math.ceil(group.length / size) }, (_, i) => group.slice(i * size, (i + 1) * size)),
  );
}

/**
 * Runs the lanes with at most `concurrency` in flight (one sink call each), a unit's lanes all started
 * in the same turn, so their writes reach the sink together; the next unit starts once it fits.
 */
function runBounded<T>(
  units: readonly (readonly T[])[],
  concurrency: number,
  run: (lane: T) => Promise<void>,
) {
  return new Promise<void>((resolve, reject) => {
    let free = Math.max(1, concurrency);
    let running = 0;
    let next = 0;
    const pump = () => {
      for (let unit = units[next]; unit !== undefined && unit.length <= free; unit = units[next]) {
        next++;
        free -= unit.length;
        running += unit.length;
        for (const lane of unit)
          run(lane).then(() => {
            free++;
            running--;
            pump();
          }, reject);
      }
      if (next >= units.length && running === 0) resolve();
    };
    pump();
  });
}
