import { decodeReading } from './decodeReading';
import { ensureError } from '../kernel/ensureError';
import type { ReceivedEvent } from './receivedEvent';
import type { SensorReading } from './sensorReading';

/** One decoded event and its position in the batch. */
export interface LaneEntry {
  readonly position: number;
  readonly event: ReceivedEvent;
  readonly reading: SensorReading;
}

export interface Lanes {
  /** The events of each key, in batch (sequence) order; lanes ordered by their first event. */
  readonly lanes: readonly (readonly LaneEntry[])[];
  /** Events that do not decode: poison, found without I/O. */
  readonly poison: readonly {
    readonly position: number;
    readonly event: ReceivedEvent;
    readonly error: Error;
  }[];
}

/** Splits a batch into one lane per ordering key (pure: decoding only). */
export function splitIntoLanes(
  events: readonly ReceivedEvent[],
  keyOf: (reading: SensorReading, event: ReceivedEvent) => string,
): Lanes {
  const byKey = new Map<string, LaneEntry[]>();
  const poison: { position: number; event: ReceivedEvent; error: Error }[] = [];
  events.forEach((event, position) => {
    let reading: SensorReading;
    try {
      reading = decodeReading(event.body);
    } catch (error) {
      poison.push({ position, event, error: ensureError(error) });
      return;
    }
    const key = keyOf(reading, event);
    const lane = byKey.get(key);
    if (lane) lane.push({ position, event, reading });
    else byKey.set(key, [{ position, event, reading }]);
  });
  return { lanes: [...byKey.values()], poison };
}
