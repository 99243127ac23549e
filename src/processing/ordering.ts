import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';
import type { ActivitySink } from '../sinks/activitySink';

/**
 * Order inside a batch: `key` (default) writes readings of different keys concurrently and
 * the readings of one key strictly in sequence order; `partition` writes the batch one event after the
 * other, exactly as before, for sinks whose contract is order across a whole partition.
 */
export const orderingModes = ['key', 'partition'] as const;
export type OrderingMode = (typeof orderingModes)[number];

/** The settings of the ordering (ORDERING, SINK_CONCURRENCY). */
export interface Ordering {
  readonly mode: OrderingMode;
  /** Most sink calls in flight at once for one batch (key mode). */
  readonly concurrency: number;
}

export const defaultOrdering: Ordering = { mode: 'key', concurrency: 16 };

/**
 * The key one reading is ordered by: what the sink declares, else its partition (a batch is one
 * partition, so that falls back to partition order). `undefined`: process in partition order.
 */
export function orderingKeyOf(
  ordering: Ordering,
  sink: Pick<ActivitySink, 'orderingKey'>,
): ((reading: SensorReading, event: ReceivedEvent) => string) | undefined {
  if (ordering.mode === 'partition' || sink.orderingKey === undefined) return undefined;
  const key = sink.orderingKey.bind(sink);
  return (reading) => key(reading);
}
