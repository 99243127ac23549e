/**
 * A process under the verify run's stop guard, for test/verify/stopGuard.test.ts: the real guard on the
 * real process, with a restore that ends at once or, with RELEASE=signal, on SIGUSR2. MODE=cooperative: the run restores when the guard
 * aborts it, then exits 130 (as runVerify does); MODE=stuck: the run never reaches its cleanup.
 */
import { guardStops } from '../../../verify/stopGuard';

const env = (name: string) => Number(process.env[name]);
const guard = guardStops({ graceMs: env('GRACE_MS'), boundMs: env('BOUND_MS') });
let restores = 0;
let shared: Promise<readonly string[]> | undefined;
const run = () =>
  (shared ??= (async () => {
    guard.print('restoring');
    // RELEASE=signal: the restore ends only when the test sends SIGUSR2 (it has seen what it waits for).
    await new Promise((resolve) =>
      process.env.RELEASE === 'signal' ? process.once('SIGUSR2', resolve) : setTimeout(resolve, 0),
    );
    restores += 1;
    return [`restored (${restores})`];
  })());
guard.setRestorer({ run, started: () => shared !== undefined });

if (process.env.MODE === 'cooperative')
  guard.signal.addEventListener('abort', () => {
    void run().then((lines) => {
      for (const line of lines) guard.print(line);
      guard.print(`stopped by ${guard.reason() ?? 'nothing'}`);
      process.exit(130);
    });
  });
guard.print('ready');
setInterval(() => undefined, 60_000);
