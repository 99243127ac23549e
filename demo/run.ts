/**
 * `npm run demo`: Breakwater end to end on this machine, without Azure, Docker or Core Tools.
 * The fake @azure/functions-core must be installed before anything loads @azure/functions.
 */
import '../sim/host/fakeFunctionsCore';

import { setTimeout as sleep } from 'node:timers/promises';

import { DemoArgsError, parseDemoArgs, USAGE } from './args';
import { runDemo } from './main';
import { type RunningServices, ServiceStartError, startDemoServices } from './services';

const print = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/**
 * The app's own log lines (trigger switch, store outages) are collected and shown indented, marked as
 * the app's, after the timeline lines of the simulated second in which they were written.
 */
const appLog: string[] = [];
function collectAppLogs(): void {
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    console[level] = (...args: unknown[]) => {
      appLog.push(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' '));
    };
  }
}
function flushAppLog(): void {
  for (const line of appLog.splice(0)) print(`${' '.repeat(12)}app: ${line}`);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseDemoArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof DemoArgsError) {
      process.stderr.write(`demo: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (parsed.kind === 'help') {
    print(USAGE);
    return 0;
  }

  let services: RunningServices;
  try {
    services = await startDemoServices(parsed.options.store);
  } catch (error) {
    if (error instanceof ServiceStartError) {
      process.stderr.write(`demo: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  // Ctrl-C, SIGTERM or a closed stdout pipe: sim/services/childProcesses stops Azurite and redis-server.

  collectAppLogs();
  const started = Date.now();
  try {
    const { exitCode } = await runDemo(parsed.options, services, {
      print,
      sleep: (ms) => sleep(ms),
      wallNow: () => Date.now(),
      startAt: Date.now(),
      flushAppLog,
    });
    print(`\nWall time ${((Date.now() - started) / 1000).toFixed(1)} s. Exit code ${exitCode}.`);
    return exitCode;
  } finally {
    flushAppLog();
    await services.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
