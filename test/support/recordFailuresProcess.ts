/**
 * A separate OS process that records failures into a shared breaker, for multi-process concurrency
 * tests. Argument: JSON RecordFailuresJob. Prints "ready", waits for "go" on stdin (so every process
 * starts writing at once), records `count` failures one call at a time and prints a JSON summary.
 */
import { createInterface } from 'node:readline';
import { TableClient } from '@azure/data-tables';

import type { BreakerPolicy } from '../../src/breaker/breakerPolicy';
import type { BreakerStore } from '../../src/breaker/breakerStore';
import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { makeTableBreakerStore } from '../../src/breaker/tableBreakerStore';

export interface RecordFailuresJob {
  readonly backend: 'redis' | 'table';
  readonly redisUrl?: string;
  readonly storageConnectionString?: string;
  readonly tableName?: string;
  readonly name: string;
  readonly policy: BreakerPolicy;
  readonly count: number;
  readonly now: number;
}

export interface RecordFailuresSummary {
  readonly tripped: number;
  readonly tripIds: string[];
  readonly lastFailuresInWindow: number;
}

function openStore(job: RecordFailuresJob): BreakerStore {
  if (job.backend === 'redis') {
    return makeRedisBreakerStore({
      redis: createBreakerRedis(job.redisUrl ?? ''),
      name: job.name,
      policy: job.policy,
    });
  }
  const table = TableClient.fromConnectionString(job.storageConnectionString ?? '', job.tableName ?? '', {
    allowInsecureConnection: true,
  });
  return makeTableBreakerStore({ table, name: job.name, policy: job.policy });
}

async function main() {
  const job = JSON.parse(process.argv[2] ?? '{}') as RecordFailuresJob;
  const store = openStore(job);
  await store.getState(); // connect before the barrier
  const lines = createInterface({ input: process.stdin });
  const go = new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      if (line.trim() === 'go') resolve();
    });
  });
  process.stdout.write('ready\n');
  await go;
  lines.close();
  const tripIds: string[] = [];
  let last = 0;
  for (let i = 0; i < job.count; i++) {
    const result = await store.record(
      [{ eventKey: `pid${process.pid}-${i}`, kind: 'transient', message: 'injected' }],
      job.now + i,
    );
    if (result.tripped && result.tripId !== undefined) tripIds.push(result.tripId);
    last = result.failuresInWindow;
  }
  await store.close();
  const summary: RecordFailuresSummary = { tripped: tripIds.length, tripIds, lastFailuresInWindow: last };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
