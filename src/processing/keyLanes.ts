import { ensureError } from '../kernel/ensureError';
import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';

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
