import type { TokenCredential } from '@azure/core-auth';

import { parseVerifyArgs, USAGE, VerifyArgsError, type VerifyOptions } from './args';
import type { AzureCloud } from './azure/azureCloud';
import { terminalConfirm } from './confirm';
import { RESTORE_BOUND_MS } from './runVerify';
import { guardStops } from './stopGuard';

/** What differs between `npm run verify` and a test's run against local stand-ins of Azure. */
export interface VerifyMainDeps {
  readonly cloud: AzureCloud;
  readonly credential: () => Promise<TokenCredential>;
}

/** Within this after a stop the run reaches its own cleanup: longer than one bounded ARM call. */
const STOP_GRACE_MS = 35_000;

/**
 * The whole command: options, the stop guard (every way of stopping restores the app, see
 * stopGuard.ts), the target, the run. Returns the exit code.
 */
export async function verifyMain(argv: readonly string[], deps: VerifyMainDeps): Promise<number> {
  const guard = guardStops({ graceMs: STOP_GRACE_MS, boundMs: STOP_GRACE_MS + RESTORE_BOUND_MS + 30_000 });
  const { print } = guard;
  const fail = (line: string, code: number) => {
    process.stderr.write(`verify: ${line}\n`);
    return code;
  };
  let parsed;
  try {
    parsed = parseVerifyArgs(argv);
  } catch (error) {
    if (error instanceof VerifyArgsError) return fail(error.message, 2);
    throw error;
  }
  if (parsed.kind === 'help') {
    print(USAGE);
    return 0;
  }
  const { options } = parsed;
  const started = Date.now();
  const runDeps = { print, signal: guard.signal, onRestorer: guard.setRestorer };
  let code: number;
  if (options.target === 'local') {
    const { runLocalVerify } = await import('./local/runLocal');
    code = (await runLocalVerify(localSettings(options), runDeps)).exitCode;
  } else {
    const { runAzureVerify, isAzureSetupError } = await import('./azure/runAzure');
    try {
      const confirm = terminalConfirm(process.stdin, process.stderr, guard.signal);
      code = (await runAzureVerify(options, process.cwd(), { ...deps, confirm }, runDeps)).exitCode;
    } catch (error) {
      if (isAzureSetupError(error)) return fail(error.message, 1);
      throw error;
    }
  }
  if (guard.reason() === 'uncaught error') code = 1;
  print(`Wall time ${((Date.now() - started) / 1000).toFixed(1)} s. Exit code ${code}.`);
  return code;
}

function localSettings(o: VerifyOptions) {
  return {
    events: o.events ?? 400,
    poisonEvery: o.poisonEvery,
    homes: o.homes,
    faultMinutes: o.faultMinutes,
    stageTimeoutMs: (o.stageTimeoutSeconds ?? 300) * 1000,
    approver: o.approver,
  };
}

/** Runs the command and exits with its code (an error that escapes it: 1, named on stderr). */
export function runAndExit(argv: readonly string[], deps: VerifyMainDeps): void {
  verifyMain(argv, deps).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `verify: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
