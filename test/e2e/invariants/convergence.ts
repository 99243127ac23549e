import { RestError } from '@azure/core-rest-pipeline';
import { odata } from '@azure/data-tables';

import type { HubEvent } from '../../../sim/host/eventHubModel';
import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import { keyOf } from '../../../sim/world/scenario';
import { decodeTableKey } from '../../../src/sinks/tableKeys';

interface Reading {
  readonly homeId: string;
  readonly sensorId: string;
  readonly occurredAt: string;
}

function readingOf(event: HubEvent): Reading | undefined {
  try {
    const r = JSON.parse(event.body.toString('utf8')) as Partial<Reading>;
    return typeof r.homeId === 'string' && typeof r.sensorId === 'string' && typeof r.occurredAt === 'string'
      ? { homeId: r.homeId, sensorId: r.sensorId, occurredAt: r.occurredAt }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The sink's order of readings: their time, then partition and sequence number. */
const versionOf = (r: Reading, e: HubEvent) =>
  `${new Date(r.occurredAt).toISOString()}|${e.partitionId}|${String(e.sequenceNumber).padStart(16, '0')}`;

/**
 * Convergence (G2 as Azure can promise it): for every key (home, sensor), the sink's final row is the
 * one that applying that key's processed events in partition order ends with, however often and by
 * however many instances they were applied. Returns what differs, in words.
 */
export async function convergenceViolations(
  world: BreakwaterWorld,
  sent: readonly HubEvent[],
  processed: ReadonlySet<string>,
  homePrefix: string,
): Promise<string[]> {
  const expected = new Map<string, { version: string; event: HubEvent }>();
  for (const event of sent) {
    const reading = readingOf(event);
    if (!reading || !processed.has(keyOf(event.partitionId, event.sequenceNumber))) continue;
    const key = `${reading.homeId}/${reading.sensorId}`;
    const version = versionOf(reading, event);
    const best = expected.get(key);
    if (!best || version > best.version) expected.set(key, { version, event });
  }
  const table = world.runtime.storage.table(world.runtime.config.processing.sinkTable);
  const rows = table.listEntities<{ eventPartition: string; eventSequenceNumber: number }>({
    // Keys are stored encoded (src/sinks/tableKeys.ts): `~` starts an escape, so `~~` sorts after them all.
    queryOptions: { filter: odata`PartitionKey ge ${homePrefix} and PartitionKey lt ${`${homePrefix}~~`}` },
  });
  const actual = new Map<string, string>();
  try {
    for await (const row of rows)
      actual.set(
        `${decodeTableKey(row.partitionKey ?? '')}/${decodeTableKey(row.rowKey ?? '')}`,
        keyOf(row.eventPartition, row.eventSequenceNumber),
      );
  } catch (error) {
    // No table: the sink never wrote a row (the problems below say which keys it should hold).
    if (!(error instanceof RestError && error.statusCode === 404)) throw error;
  }
  const problems: string[] = [];
  for (const [key, { event }] of expected) {
    const want = keyOf(event.partitionId, event.sequenceNumber);
    const got = actual.get(key);
    if (got !== want) problems.push(`${key}: sink holds ${got ?? 'nothing'}, expected ${want}`);
  }
  return problems.length === 0
    ? []
    : [`the sink did not converge on ${problems.length} key(s): ${problems.slice(0, 5).join('; ')}`];
}
