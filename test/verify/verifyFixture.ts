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

/** The simulated deployment on the test run's Azurite and Redis. */
export const localTarget = (): Promise<LocalTarget> =>
  createLocalTarget({
    storageConnectionString: inject('storageConnectionString'),
    redisUrl: inject('redisUrl'),
  });

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
