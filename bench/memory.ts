/**
 * `npm run bench -- --memory [seconds] [events/s]`: what a worker holds under load. Builds the app
 * (`npm run build` → dist/), starts Azurite, then runs two processes side by side for the same time
 * (default 60 s): the compiled app under the host model at a steady rate (default 100 events/s over 4
 * partitions, Table sink and Table breaker store on Azurite), and a bare Node process that loads the
 * same SDKs and host model and does nothing. Prints RSS and heap (after a full GC) at the start, the
 * middle and the end of each, and the app's growth over the second half. Not a test: nothing fails on
 * a number.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { startAzurite } from '../sim/services/azurite';

interface Sample {
  readonly at: number;
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly sent?: number;
  readonly backlog?: number;
  readonly failed?: number;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const growth = (from: number, to: number) => `${(((to - from) / from) * 100).toFixed(1)} %`;

function runWorker(mode: 'app' | 'bare', seconds: number, rate: number, storage: string) {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/memoryWorker.ts', mode, String(seconds), String(rate)],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_STORAGE: storage } },
  );
  const samples: Sample[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) samples.push(JSON.parse(line) as Sample);
  });
  return new Promise<Sample[]>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve(samples);
      else reject(new Error(`the ${mode} worker exited with code ${String(code)}`));
    });
  });
}

/** The sample nearest to `at` ms. */
const near = (samples: readonly Sample[], at: number) =>
  samples.reduce((best, s) => (Math.abs(s.at - at) < Math.abs(best.at - at) ? s : best));

export async function runMemoryBench(seconds: number, rate: number, print: (line: string) => void) {
  print('building the app (npm run build → dist/) ...');
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const azurite = await startAzurite();
  try {
    const [app, bare] = await Promise.all([
      runWorker('app', seconds, rate, azurite.connectionString),
      runWorker('bare', seconds, rate, azurite.connectionString),
    ]);
    const end = seconds * 1000;
    for (const [label, samples] of [
      ['app (dist/, host model, Table sink)', app],
      ['bare Node + the same SDKs', bare],
    ] as const) {
      const [s, m, e] = [near(samples, 0), near(samples, end / 2), near(samples, end)];
      print(
        `memory ${label}: rss ${mib(s.rss)} → ${mib(m.rss)} → ${mib(e.rss)}, heap used ${mib(s.heapUsed)} → ${mib(m.heapUsed)} → ${mib(e.heapUsed)} (start, ${Math.round(m.at / 1000)} s, ${Math.round(e.at / 1000)} s; after a full GC); growth over the second half: rss ${growth(m.rss, e.rss)}, heap ${growth(m.heapUsed, e.heapUsed)}`,
      );
    }
    const last = app.at(-1);
    print(
      `app load: ${last?.sent ?? 0} events sent at ${rate}/s over ${seconds} s, ${last?.backlog ?? '?'} not yet checkpointed at the end, ${last?.failed ?? '?'} invocation(s) failed`,
    );
    const [a, b] = [near(app, end), near(bare, end)];
    print(`app minus bare at the end: rss ${mib(a.rss - b.rss)}, heap used ${mib(a.heapUsed - b.heapUsed)}`);
  } finally {
    await azurite.stop();
  }
}
