/**
 * Child process for test/sim/noProcessOutlivesRun.test.ts: starts the test run's services exactly as the
 * global setup does, prints "ready", then writes a heartbeat until something ends it.
 */
import { startTestServices } from '../../../sim/services/testServices';

startTestServices().then(
  () => {
    process.stdout.write('ready\n');
    setInterval(() => process.stdout.write('.'), 20);
  },
  (error: unknown) => {
    process.stderr.write(`setup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
