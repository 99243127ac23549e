import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';

/** `applied` when the view changed; `stale` when a newer or the same reading was already there. */
export type SinkWriteResult = 'applied' | 'stale';

/**
 * The downstream system. What it must promise, and why, is written once in docs/your-own-downstream.md
 * and checked by the contract suite in test/support/sinkContract.ts: idempotent (a held batch is re-run
 * and its successes are written again), newest-wins per key, errors that say whether the downstream is
 * out (statusCode / network code) or refuses this event, and a cheap health probe.
 */
// #region ActivitySink
export interface ActivitySink {
  write(reading: SensorReading, event: ReceivedEvent, signal: AbortSignal): Promise<SinkWriteResult>;
  /**
   * A cheap health check of the downstream (bounded by `signal`): resolves when it answers, throws when
   * not; the error is classified by `classifyError` like a write error.
   */
  probe(signal: AbortSignal): Promise<void>;
  /**
   * Optional: the key within which this sink orders readings (newest wins per key). Readings with
   * different keys never affect each other, so they may be written concurrently; readings with the
   * same key must reach the sink in sequence order. Pure and cheap: no I/O.
   */
  orderingKey?(reading: SensorReading): string;
  /**
   * Optional, with `orderingKey`: the version newest-wins compares within a key (text, greater wins).
   * A sink that declares it need not be sent a reading of a batch that a later reading of its key
   * supersedes (key mode): the row ends up the same, with fewer writes. Pure and cheap: no I/O.
   */
  readingVersion?(reading: SensorReading, event: ReceivedEvent): string;
  /**
   * Optional, with `orderingKey`: readings of keys that share this value may be written together (the
   * Table sink: one partition, one transaction); key mode starts those keys side by side. Pure, cheap.
   */
  writeGroup?(reading: SensorReading): string;
}
// #endregion ActivitySink
