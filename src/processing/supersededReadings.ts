import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';

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
