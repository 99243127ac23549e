import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { stagePackage } from '../scripts/package/stagePackage';
import { localAppEnv } from '../sim/host/localAppEnv';
import { rpcTriggerMetadata } from '../sim/host/triggerWire';
import type { BenchSection } from './benchSection';
import { median } from './measure';

const RUNS = 7;

interface ColdStart {
  readonly registered: readonly string[];
  readonly loadMs: number;
  readonly sinceStartMs: number;
  readonly rssMiB: number;
  readonly firstBatchMs?: number;
  readonly batch?: string;
  readonly byPackage: Readonly<Record<string, number>>;
}

/** Ten readings of ten sensors: the first batch a restarted worker is handed. */
function firstBatch(): unknown {
  const events = Array.from({ length: 10 }, (_, i) => ({
    sequenceNumber: 1000 + i,
    offset: String(1000 + i),
    enqueuedTimeUtc: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
  const bodies = events.map((_, i) =>
    Buffer.from(
      JSON.stringify({
        homeId: 'home-cold',
        sensorId: `door-${i}`,
        kind: 'contact',
        state: 'open',
        occurredAt: '2026-01-01T00:00:00.000Z',
      }),
    ).toString('base64'),
  );
  return { functionName: 'ProcessSensorEvents', bodies, triggerMetadata: rpcTriggerMetadata('0', events) };
}

/**
 * How long a new worker takes to register the app's functions, and to process its first batch (ten
 * readings to the Table sink on the run's Azurite), for today's compiled tree (`npm run build`, every
 * file of dist/src/functions required) and the staged bundle (`npm run stage-package`, its
 * dist/main.js), each in a process of its own (sim/host/coldStartWorker.cjs, plain node), the two
 * taking turns (one of each first to warm the disk cache), medians printed. Every scale-out and every
 * restart after an app-settings write (the breaker's switch) pays this.
 */
export const coldStartSection: BenchSection = {
  title: `Cold start: node start to every function registered and to the first batch, tree vs bundle, ${RUNS} processes each`,
  async run({ storageConnectionString, print }) {
    const root = path.resolve(import.meta.dirname, '..');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    const dir = mkdtempSync(path.join(tmpdir(), 'cold-start-'));
    try {
      await stagePackage(root, path.join(dir, 'package'));
      const batchFile = path.join(dir, 'batch.json');
      writeFileSync(batchFile, JSON.stringify(firstBatch()));
      const env = { PATH: process.env.PATH ?? '', ...localAppEnv(storageConnectionString, 'cold') };
      const apps = { tree: 'tree', bundle: path.join(dir, 'package/dist/main.js') } as const;
      // Not execFileSync: the storage proxies of the run's Azurite live in this process and must answer.
      const once = async (app: string, ...args: string[]) => {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [path.join(root, 'sim/host/coldStartWorker.cjs'), '--app', app, ...args],
          { cwd: root, env, encoding: 'utf8' },
        );
        const run = JSON.parse(stdout) as ColdStart;
        if (run.batch !== undefined && run.batch !== 'done') throw new Error(`first batch: ${run.batch}`);
        return run;
      };
      const runs = { tree: [] as ColdStart[], bundle: [] as ColdStart[] };
      const batches = { tree: [] as ColdStart[], bundle: [] as ColdStart[] };
      await once(apps.tree, '--batch', batchFile);
      await once(apps.bundle, '--batch', batchFile);
      for (let i = 0; i < RUNS; i++)
        for (const kind of i % 2 === 0 ? (['tree', 'bundle'] as const) : (['bundle', 'tree'] as const)) {
          runs[kind].push(await once(apps[kind]));
          batches[kind].push(await once(apps[kind], '--batch', batchFile));
        }
      const mid = (list: readonly ColdStart[], pick: (r: ColdStart) => number) => median(list.map(pick));
      for (const kind of ['tree', 'bundle'] as const)
        print(
          `${kind.padEnd(6)}: ${runs[kind][0]!.registered.length} functions registered in ` +
            `${mid(runs[kind], (r) => r.loadMs).toFixed(0)} ms (${mid(runs[kind], (r) => r.sinceStartMs).toFixed(0)} ms since node started), ` +
            `rss after ${mid(runs[kind], (r) => r.rssMiB).toFixed(0)} MiB; first batch done ` +
            `${mid(batches[kind], (r) => r.firstBatchMs ?? NaN).toFixed(0)} ms after node started`,
        );
      const ratio = (pick: (r: ColdStart) => number, list: typeof runs) =>
        (mid(list.tree, pick) / mid(list.bundle, pick)).toFixed(2);
      print(
        `bundle vs tree: register ${ratio((r) => r.loadMs, runs)}× faster, first batch ` +
          `${ratio((r) => r.firstBatchMs ?? NaN, batches)}× faster, rss ${(mid(runs.bundle, (r) => r.rssMiB) / mid(runs.tree, (r) => r.rssMiB)).toFixed(2)}×`,
      );
      const slowest = Object.entries((await once(apps.tree, '--by-package')).byPackage)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`);
      print(`slowest packages to load in the tree (inclusive, one run): ${slowest.join(', ')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
