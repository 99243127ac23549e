import { decodeReading } from '../../src/hub/decodeReading';
import type { OrderingMode } from '../../src/processing/ordering';
import { readingVersion } from '../../src/sinks/homeActivityTableSink';
import type { HubEvent } from '../host/eventHubModel';
import type { InvocationRecord } from '../host/hostRound';
import type { BreakwaterWorld, SinkWrite } from './breakwaterWorld';

/** The ordering the world's app runs with (ORDERING, as its runtime read it). */
export const orderingOf = (world: BreakwaterWorld): OrderingMode =>
  world.runtime.config.processing.ordering.mode;

/**
 * Sets ORDERING for what runs next; a change restarts the app, as a settings edit does. A world that
 * cannot restart its app keeps its ordering: the setting is put back and false returned.
 */
export async function useOrdering(world: BreakwaterWorld, ordering: OrderingMode): Promise<boolean> {
  if (orderingOf(world) === ordering) return true;
  const before = world.env.ORDERING;
  world.env.ORDERING = ordering;
  await world.restartApp();
  if (orderingOf(world) === ordering) return true;
  if (before === undefined) delete world.env.ORDERING;
  else world.env.ORDERING = before;
  return false;
}

/**
 * Whether a sent event's reading was superseded inside a batch that held it: that batch's invocation
 * wrote a later reading of the same key (home, sensor) with the same or a greater version. Key mode
 * need not write such a reading (newest wins: the row ends up the same), so it is processed without a
 * write of its own. A write of another batch does not count: that would hide a checkpoint moved past it.
 * A batch is a host invocation or a drain's read of saved events (same range fields): the drain hands
 * its batches to the same processor.
 */
export function supersededInItsBatch(
  writes: readonly SinkWrite[],
  invocations: readonly Pick<
    InvocationRecord,
    'invocationId' | 'partitionId' | 'firstSequence' | 'lastSequence'
  >[],
): (event: HubEvent) => boolean {
  const batchesOf = new Map<string, (typeof invocations)[number][]>();
  for (const i of invocations) batchesOf.set(i.invocationId, [...(batchesOf.get(i.invocationId) ?? []), i]);
  const byKey = new Map<string, SinkWrite[]>();
  for (const w of writes) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w]);
  return (event) => {
    let reading;
    try {
      reading = decodeReading(event.body);
    } catch {
      return false; // poison: dead-lettered, never superseded
    }
    const version = readingVersion(reading, { ...event, index: 0, systemProperties: {} });
    return (byKey.get(`${reading.homeId}/${reading.sensorId}`) ?? []).some((w) => {
      if (w.partitionId !== event.partitionId || w.sequenceNumber <= event.sequenceNumber) return false;
      if (w.version < version) return false;
      return (batchesOf.get(w.invocationId) ?? []).some(
        (batch) =>
          batch.partitionId === event.partitionId &&
          batch.firstSequence <= event.sequenceNumber &&
          w.sequenceNumber <= batch.lastSequence,
      );
    });
  };
}
