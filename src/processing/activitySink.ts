import type { ReceivedEvent } from './receivedEvent';
import type { SensorReading } from './sensorReading';

/** `applied` when the view changed; `stale` when a newer or the same reading was already there. */
export type SinkWriteResult = 'applied' | 'stale';

/**
 * The downstream system: it must be idempotent, because a held batch is re-run and its successes
 * are written again.
 */
export interface ActivitySink {
  write(reading: SensorReading, event: ReceivedEvent, signal: AbortSignal): Promise<SinkWriteResult>;
  /**
   * A cheap health check of the downstream (bounded by `signal`): resolves when it answers, throws when
   * not; the error is classified by `classifyError` like a write error.
   */
  probe(signal: AbortSignal): Promise<void>;
}
