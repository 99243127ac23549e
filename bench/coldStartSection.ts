import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { localAppEnv } from '../sim/host/localAppEnv';
import type { BenchSection } from './benchSection';
import { median } from './measure';

const RUNS = 7;

interface ColdStart {
  readonly registered: number;
  readonly loadMs: number;
  readonly sinceStartMs: number;
  readonly rssMiB: number;
  readonly byPackage: Readonly<Record<string, number>>;
}

/**
 * How long a new worker takes to register the app's functions (bench/coldStartChild.cjs), from the
 * compiled tree `npm run build` writes, with the app settings a local run has and nothing else in the
 * environment: a process of its own per run (one first to warm the disk cache), medians printed. Every
 * scale-out and every restart after an app-settings write (the breaker's switch) pays this.
 */
export const coldStartSection: BenchSection = {
  title: `Cold start: node start to every function registered, today's compiled tree, ${RUNS} processes`,
  run({ storageConnectionString, print }) {
    const root = path.resolve(import.meta.dirname, '..');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    const env = { PATH: process.env.PATH ?? '', ...localAppEnv(storageConnectionString, 'cold') };
    const once = (...args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [path.join(root, 'bench/coldStartChild.cjs'), ...args], {
          cwd: root,
          env,
          encoding: 'utf8',
        }),
      ) as ColdStart;
    once();
    const runs = Array.from({ length: RUNS }, () => once());
    const mid = (pick: (r: ColdStart) => number) => median(runs.map(pick)).toFixed(0);
    print(
      `${runs[0]!.registered} functions registered: ${mid((r) => r.loadMs)} ms to load the app, ` +
        `${mid((r) => r.sinceStartMs)} ms since node started; rss after ${mid((r) => r.rssMiB)} MiB`,
    );
    const slowest = Object.entries(once('--by-package').byPackage)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`);
    print(`slowest packages to load (inclusive, one run): ${slowest.join(', ')}`);
    return Promise.resolve();
  },
};
