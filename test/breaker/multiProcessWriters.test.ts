import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { TableClient } from '@azure/data-tables';
import { describe, expect, inject, it } from 'vitest';

import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { makeTableBreakerStore } from '../../src/breaker/tableBreakerStore';
import type { RecordFailuresJob, RecordFailuresSummary } from '../support/recordFailuresProcess';
import { T0, testPolicy, uniqueName } from './breakerStoreFixture';

const script = path.join(__dirname, '../support/recordFailuresProcess.ts');
const PROCESSES = 8;
const EACH = 25;
const policy = { ...testPolicy, threshold: 150 };

interface Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly summary: Promise<RecordFailuresSummary>;
}

function startWorker(job: RecordFailuresJob): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(job)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const summary = new Promise<RecordFailuresSummary>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') markReady();
      else if (line.startsWith('{')) resolve(JSON.parse(line) as RecordFailuresSummary);
    });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`worker exited with ${code}: ${stderr}`));
    });
  });
  return { child, ready: Promise.race([ready, summary.then(() => undefined)]), summary };
}

async function runWorkers(job: Omit<RecordFailuresJob, 'count' | 'now' | 'policy' | 'name'>, name: string) {
  const workers = Array.from({ length: PROCESSES }, () =>
    startWorker({ ...job, name, policy, count: EACH, now: T0 }),
  );
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.stdin?.write('go\n');
  return Promise.all(workers.map((w) => w.summary));
}

describe('separate OS processes writing one breaker', () => {
  it('Redis: the exact total and exactly one trip', async () => {
    const name = uniqueName('proc');
    const redisUrl = inject('redisUrl');
    const summaries = await runWorkers({ backend: 'redis', redisUrl }, name);
    expect(summaries.reduce((n, s) => n + s.tripped, 0)).toBe(1);
    const store = makeRedisBreakerStore({ redis: createBreakerRedis(redisUrl), name, policy });
    expect((await store.record([], T0 + EACH)).failuresInWindow).toBe(PROCESSES * EACH);
    expect(await store.history(10)).toHaveLength(1);
    await store.close();
  }, 120_000);

  it('Table: the exact total and exactly one trip', async () => {
    const name = uniqueName('proc');
    const storageConnectionString = inject('storageConnectionString');
    const tableName = `Proc${Math.random().toString(36).slice(2, 8)}`;
    const summaries = await runWorkers({ backend: 'table', storageConnectionString, tableName }, name);
    expect(summaries.reduce((n, s) => n + s.tripped, 0)).toBe(1);
    const table = TableClient.fromConnectionString(storageConnectionString, tableName, {
      allowInsecureConnection: true,
    });
    const store = makeTableBreakerStore({ table, name, policy });
    expect((await store.record([], T0 + EACH)).failuresInWindow).toBe(PROCESSES * EACH);
    expect(await store.history(10)).toHaveLength(1);
    await store.close();
  }, 120_000);
});
