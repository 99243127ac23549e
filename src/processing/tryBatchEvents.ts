/**
 * Trying a batch's events: each event decoded (poison found without I/O), written with its bounded
 * retry, in batch order (`tryEventsInOrder`) or by key (`tryEventsByKey`: its lanes, the readings a later
 * one supersedes, the bounded concurrency), under one fail-fast and deadline rule. One algorithm in one
 * file (about 350 lines): split, its two modes and their shared rules would scatter.
 */
import { isPoisonEventError } from '../hub/errors';
import { eventKey, type ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';
import { ensureError } from '../kernel/ensureError';
import type { ActivitySink } from '../sinks/activitySink';
import { classifyFailure } from '../sinks/classifyError';
import type { EventOutcome } from './eventOutcome';
import { type Ordering, orderingKeyOf } from './ordering';

/** Tries a batch's events in the order the setting asks for (ORDERING: by key, or the whole partition). */
export function makeTryBatchEvents(
  ordering: Ordering,
  sink: Pick<ActivitySink, 'orderingKey' | 'readingVersion' | 'writeGroup'>,
) {
  const keyOf = orderingKeyOf(ordering, sink);
  const versionOf = sink.readingVersion?.bind(sink);
  const groupOf = sink.writeGroup?.bind(sink);
  return (
    events: readonly ReceivedEvent[],
    write: WriteAttempt,
    options: InOrderOptions,
  ): Promise<EventOutcome[]> =>
    keyOf
      ? tryEventsByKey(events, write, {
          ...options,
          concurrency: ordering.concurrency,
          keyOf,
          ...(versionOf ? { versionOf } : {}),
          ...(groupOf ? { groupOf } : {}),
        })
      : tryEventsInOrder(events, write, options);
}

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

/** The outcome of one tried event (shared with `tryEventsByKey` below). */
export function toOutcome(event: ReceivedEvent, result: Awaited<ReturnType<WriteAttempt>>): EventOutcome {
  if (result.ok) return { status: 'processed', event, applied: result.applied, attempts: result.attempts };
  const error = ensureError(result.error);
  // The sink calling the event itself invalid is a poison event, not an outage.
  if (isPoisonEventError(error)) return { status: 'poison', event, error };
  return { status: 'failed', event, error, attempts: result.attempts, scope: classifyFailure(error).scope };
}

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

/** One decoded event and its position in the batch. */
export interface LaneEntry {
  readonly position: number;
  readonly event: ReceivedEvent;
  readonly reading: SensorReading;
}

export interface Lanes {
  /** The events of each key, in batch (sequence) order; lanes ordered by their first event. */
  readonly lanes: readonly (readonly LaneEntry[])[];
  /** The same lanes by write group (one lane per group without `groupOf`), groups in lane order. */
  readonly groups: readonly (readonly (readonly LaneEntry[])[])[];
  /** Events that do not decode: poison, found without I/O. */
  readonly poison: readonly {
    readonly position: number;
    readonly event: ReceivedEvent;
    readonly error: Error;
  }[];
}

/**
 * Splits a batch into one lane per ordering key (pure: `decode` only; what it throws is poison). With `groupOf` (the sink's
 * write group, e.g. one Table partition), the lanes of one group come side by side, groups in the order
 * of their first event, so concurrent writes of a group reach the sink together.
 */
export function splitIntoLanes(
  events: readonly ReceivedEvent[],
  decode: (event: ReceivedEvent) => SensorReading,
  keyOf: (reading: SensorReading, event: ReceivedEvent) => string,
  groupOf?: (reading: SensorReading) => string,
): Lanes {
  const byKey = new Map<string, LaneEntry[]>();
  const poison: { position: number; event: ReceivedEvent; error: Error }[] = [];
  events.forEach((event, position) => {
    let reading: SensorReading;
    try {
      reading = decode(event);
    } catch (error) {
      poison.push({ position, event, error: ensureError(error) });
      return;
    }
    const key = keyOf(reading, event);
    const lane = byKey.get(key);
    if (lane) lane.push({ position, event, reading });
    else byKey.set(key, [{ position, event, reading }]);
  });
  const lanes = [...byKey.values()];
  const groups = groupOf ? groupLanes(lanes, groupOf) : lanes.map((lane) => [lane]);
  return { lanes: groups.flat(), groups, poison };
}

function groupLanes(lanes: readonly LaneEntry[][], groupOf: (reading: SensorReading) => string) {
  const groups = new Map<string, LaneEntry[][]>();
  for (const lane of lanes) {
    const [first] = lane;
    if (first === undefined) continue;
    const group = groupOf(first.reading);
    const list = groups.get(group);
    if (list) list.push(lane);
    else groups.set(group, [lane]);
  }
  return [...groups.values()];
}

/** The version newest-wins compares (comparable as text): greater replaces smaller. */
export type ReadingVersionOf = (reading: SensorReading, event: ReceivedEvent) => string;

/**
 * Which readings of one key (in sequence order) a later reading of the same key supersedes: one with
 * the same or a greater version follows it, so writing it could not change what the row ends up as
 * once that later one is written (newest wins). Pure; `true` at a position means: need not be written.
 */
export function supersededReadings(
  entries: readonly { readonly reading: SensorReading; readonly event: ReceivedEvent }[],
  versionOf: ReadingVersionOf,
): boolean[] {
  const superseded = new Array<boolean>(entries.length).fill(false);
  let newestAfter: string | undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry === undefined) continue;
    const version = versionOf(entry.reading, entry.event);
    if (newestAfter !== undefined && newestAfter >= version) superseded[i] = true;
    else newestAfter = version;
  }
  return superseded;
}
