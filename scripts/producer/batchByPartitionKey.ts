import type { OutgoingEvent } from './generateEvents';

/** Events that go out in one send: one partition key, at most `maxBatchBytes` by our estimate. */
export interface PlannedBatch {
  readonly partitionKey: string;
  readonly events: readonly OutgoingEvent[];
  readonly estimatedBytes: number;
}

export interface BatchLimits {
  readonly maxBatchBytes: number;
  /** AMQP framing and annotations added to every event's body; generous on purpose. */
  readonly perEventOverheadBytes?: number;
  /** Framing of the batch envelope itself. */
  readonly batchOverheadBytes?: number;
}

/** An event too large to go out even alone. */
export class EventTooLargeError extends Error {
  override readonly name = 'EventTooLargeError';
}

/**
 * Groups events into batches that each carry one partition key (so a home's readings stay in order on
 * one partition) and stay under the byte limit. Order is kept within a key; batches come out in the order
 * their key first appears, and a key's later batches follow its earlier ones.
 */
export function batchByPartitionKey(events: readonly OutgoingEvent[], limits: BatchLimits): PlannedBatch[] {
  const perEvent = limits.perEventOverheadBytes ?? 128;
  const envelope = limits.batchOverheadBytes ?? 512;
  const room = limits.maxBatchBytes - envelope;
  const open = new Map<string, { events: OutgoingEvent[]; bytes: number }>();
  const done: { key: string; events: OutgoingEvent[]; bytes: number }[] = [];
  const order: string[] = [];

  for (const event of events) {
    const size = event.body.byteLength + perEvent;
    if (size > room) {
      throw new EventTooLargeError(
        `an event for partition key "${event.partitionKey}" needs about ${size + envelope} bytes, over the ${limits.maxBatchBytes}-byte batch limit`,
      );
    }
    let current = open.get(event.partitionKey);
    if (current === undefined) order.push(event.partitionKey);
    if (current !== undefined && current.bytes + size > room) {
      done.push({ key: event.partitionKey, ...current });
      current = undefined;
    }
    if (current === undefined) {
      current = { events: [], bytes: 0 };
      open.set(event.partitionKey, current);
    }
    current.events.push(event);
    current.bytes += size;
  }

  // Full batches were closed in send order per key; emit each key's closed batches, then its open one.
  const byKey = new Map<string, PlannedBatch[]>();
  const plan = (key: string, batch: { events: OutgoingEvent[]; bytes: number }): PlannedBatch => ({
    partitionKey: key,
    events: batch.events,
    estimatedBytes: batch.bytes + envelope,
  });
  for (const batch of done) byKey.set(batch.key, [...(byKey.get(batch.key) ?? []), plan(batch.key, batch)]);
  const result: PlannedBatch[] = [];
  for (const key of order) {
    result.push(...(byKey.get(key) ?? []));
    const last = open.get(key);
    if (last !== undefined) result.push(plan(key, last));
  }
  return result;
}

/** Splits the events into consecutive windows of one second's worth at `rate` events/s (0: one window). */
export function windowsForRate<T>(events: readonly T[], rate: number): T[][] {
  const size = rate > 0 ? rate : Math.max(1, events.length);
  const windows: T[][] = [];
  for (let i = 0; i < events.length; i += size) windows.push(events.slice(i, i + size));
  return windows;
}
