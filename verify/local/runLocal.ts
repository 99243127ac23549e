// The fake @azure/functions-core must be installed before anything loads @azure/functions.
import '../../sim/host/fakeFunctionsCore';

import { startDemoServices } from '../../demo/services';
import { callerHandlesSignals } from '../../sim/services/childProcesses';
import { type RunDeps, type RunSettings, runVerify, type VerifyResult } from '../runVerify';
import { createLocalTarget } from './localTarget';

/**
 * `--target local`: starts Azurite (and redis-server when there is one to be had, as the demo does),
 * builds the simulated deployment, runs the verify run on it, and stops everything however it ends.
 */
export async function runLocalVerify(settings: RunSettings, deps: RunDeps): Promise<VerifyResult> {
  // Ctrl-C must reach this run only: it restores the app before Azurite and Redis are stopped.
  callerHandlesSignals();
  const services = await startDemoServices('auto');
  try {
    const target = await createLocalTarget(services);
    const restoreConsole = showAppLogs(deps.print);
    try {
      return await runVerify(target, settings, deps);
    } finally {
      restoreConsole();
      await target.close();
    }
  } finally {
    await services.stop();
  }
}

/** The app's own log lines (trigger switch, fault switch) shown among the run's, marked as the app's. */
function showAppLogs(print: (line: string) => void): () => void {
  const levels = ['log', 'info', 'warn', 'error'] as const;
  const saved = levels.map((level) => [level, console[level].bind(console)] as const);
  for (const level of levels)
    console[level] = (...args: unknown[]) => {
      print(`     app: ${args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ')}`);
    };
  return () => {
    for (const [level, fn] of saved) console[level] = fn;
  };
}
