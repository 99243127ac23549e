import { inject } from 'vitest';

import { createLocalTarget, type LocalTarget } from '../../verify/local/localTarget';
import type { RunSettings } from '../../verify/runContext';

/** A short run: fewer readings than `npm run verify`, the same steps and the same breaker settings. */
export const shortRun = (run: string, overrides: Partial<RunSettings> = {}): RunSettings => ({
  events: 120,
  poisonEvery: 25,
  homes: 8,
  faultMinutes: 10,
  stageTimeoutMs: 300_000,
  approver: 'Verify run',
  run,
  ...overrides,
});

/**
 * The simulated deployment on the test run's Azurite, with the Table breaker store: its table is the
 * world's own, while a Redis store keys the breaker by the function's name, so verify runs in test files
 * that run at once would share one breaker (one run's trip is the next one's "breaker OPEN" at start).
 * `npm run verify -- --target local` runs the Redis store when redis-server is on the machine.
 */
export const localTarget = (): Promise<LocalTarget> =>
  createLocalTarget({ storageConnectionString: inject('storageConnectionString') });

/** Collects the run's lines (VERIFY_ECHO=1 also prints them) and lets a test stop the run. */
export function recorder() {
  const lines: string[] = [];
  const controller = new AbortController();
  const print = (line: string) => {
    lines.push(line);
    if (process.env.VERIFY_ECHO) process.stdout.write(`${line}\n`);
  };
  return { lines, controller, print, signal: controller.signal };
}
