import { performance } from 'node:perf_hooks';

import { decodeReading } from '../src/hub/decodeReading';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { silentLogger } from '../src/kernel/logger';
import type { BatchResult } from '../src/processing/batchProcessor';
import { splitIntoLanes, supersededReadings } from '../src/processing/tryBatchEvents';
import { readingVersion } from '../src/sinks/homeActivityTableSink';

export const BATCH = 100;

export const workloads = ['bursts', 'spread'] as const;
export type WorkloadKind = (typeof workloads)[number];

export const describeWorkload = (kind: WorkloadKind) =>
  kind === 'bursts' ? '20 homes × 5 readings over 3 sensors' : '100 homes × 1 reading';

/**
 * The readings of one batch, as a hub partition delivers them (homes interleaved). `bursts`: 20 homes
 * with 5 readings each over 3 sensors (a door opened and closed, motion, a window), as busy homes send;
 * `spread`: 100 homes with one reading each. Homes cycle through a pool of `pool` homes, so after the
 * first batches every write replaces an existing row; versions grow batch by batch.
 */
export function makeWorkload(kind: WorkloadKind, prefix: string, pool: number) {
  const perHome = kind === 'bursts' ? 5 : 1;
  const homes = BATCH / perHome;
  const sensors = ['door-1', 'motion', 'door-1', 'motion', 'window'];
  let batchNo = 0;
  return (): ReceivedEvent[] => {
    const b = batchNo++;
    return Array.from({ length: BATCH }, (_, index) => {
      const n = b * BATCH + index;
      const home = (b * homes + (index % homes)) % pool;
      const body = Buffer.from(
        JSON.stringify({
          homeId: `${prefix}-home-${home}`,
          sensorId: kind === 'bursts' ? sensors[Math.floor(index / homes)] : 'door-1',
          kind: 'contact',
          state: n % 2 === 0 ? 'open' : 'closed',
          occurredAt: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
        }),
      );
      return {
        ...{ index, body, partitionId: '0', sequenceNumber: n, offset: String(n) },
        ...{ enqueuedTimeUtc: new Date().toISOString(), properties: {}, systemProperties: {} },
      };
    });
  };
}

/** The writes key mode makes of a batch: each key's readings that no later one of its key supersedes. */
export function keyModeWrites(batch: readonly ReceivedEvent[]) {
  const { lanes } = splitIntoLanes(
    batch,
    (e) => decodeReading(e.body),
    (r) => `${r.homeId}/${r.sensorId}`,
  );
  return lanes.flatMap((lane) => {
    const skip = supersededReadings(lane, readingVersion);
    return lane.filter((_, i) => skip[i] !== true);
  });
}

/** A plain pool: at most `bound` of `run` in flight, items in any order. */
export async function inPool<T>(items: readonly T[], bound: number, run: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(bound, items.length) }, async () => {
      for (let item = items[next++]; item !== undefined; item = items[next++]) await run(item);
    }),
  );
}

/** Events per second of `run` over `batches` fresh batches (after one warm-up batch if asked). */
export async function rate(
  next: () => ReceivedEvent[],
  run: (batch: ReceivedEvent[]) => Promise<unknown>,
  batches: number,
  warmUp: boolean,
) {
  if (warmUp) await run(next());
  const t = performance.now();
  for (let i = 0; i < batches; i++) await run(next());
  return ((BATCH * batches) / (performance.now() - t)) * 1000;
}

export const benchContext = { invocationId: 'bench', logger: silentLogger, finalAttempt: false };

/** A figure only counts when every reading was written or superseded: nothing dead-lettered. */
export const allProcessed = (result: BatchResult) => {
  if (result.deadLettered > 0) throw new Error(`bench batch dead-lettered ${result.deadLettered} event(s)`);
};

export const f = (n: number) => Math.round(n).toLocaleString('en-US');

/** The one line per workload and sink that docs/benchmarks.md quotes (test/bench checks its form). */
export function throughputLine(
  sink: string,
  kind: WorkloadKind,
  serial: number,
  byKey: number,
  ceiling: number,
) {
  return `sink throughput (${sink}, ${kind}): serial ${f(serial)} ev/s, by key ${f(byKey)} ev/s (${(byKey / serial).toFixed(1)}× serial), ceiling ${f(ceiling)} ev/s (${Math.round((byKey / ceiling) * 100)} % of ceiling)`;
}
