/** Every way a run can be told to stop before it ends by itself. */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'closed output' | 'uncaught error';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What the guard restores with; runVerify registers the run's (once, bounded) as soon as it starts. */
export interface Restorer {
  /** The restore, run once: every call shares the first one's promise. */
  run(): Promise<readonly string[]>;
  /** True once the run (or the guard) has started it. */
  started(): boolean;
}

export interface StopGuardOptions {
  /**
   * After a stop, how long the run itself may take to reach its cleanup (an in-flight ARM write ends or
   * times out first) before the guard restores on its own: a stop from an error the run never sees (a
   * stray exception in an SDK's socket handler) must not leave the switch on.
   */
  readonly graceMs: number;
  /** After a stop, the latest the process exits, restored or not. */
  readonly boundMs: number;
}

export interface StopGuard {
  /** Aborted on the first stop, whatever it was. */
  readonly signal: AbortSignal;
  /** The first stop's reason, if any. */
  reason(): StopReason | undefined;
  /** One line to stdout, or to stderr once stdout is closed. Never throws. */
  readonly print: (line: string) => void;
  readonly setRestorer: (restorer: Restorer) => void;
}

/**
 * Makes every way the process can stop early end with the app restored: SIGINT, SIGTERM, SIGHUP (the
 * terminal closed, SSH dropped), a closed output pipe (EPIPE on stdout, also while printing inside a
 * signal handler: `npm run verify | head`, then Ctrl-C), an uncaught exception or unhandled rejection.
 * Each stop aborts the run, which then restores as it does at its end; the restore runs once whoever
 * asks (runVerify shares one promise). Further signals while restoring are said and ignored: a
 * second Ctrl-C that quit at once used to leave FAULT_SWITCH_ENABLED=true on the deployment. Bounded:
 * the process exits within `boundMs` of the first stop in any case.
 */
export function guardStops(options: StopGuardOptions, proc: NodeJS.Process = process): StopGuard {
  const controller = new AbortController();
  let stopped: StopReason | undefined;
  let stdoutOpen = true;
  let restorer: Restorer | undefined;

  const writeErr = (line: string) => {
    try {
      proc.stderr.write(`${line}\n`);
    } catch {
      // Nowhere left to say it; the restore goes on regardless.
    }
  };
  const print = (line: string) => {
    if (!stdoutOpen) {
      writeErr(line);
      return;
    }
    try {
      proc.stdout.write(`${line}\n`);
    } catch {
      stdoutOpen = false;
      writeErr(line);
    }
  };

  const restoreNow = async (why: string) => {
    writeErr(`verify: ${why}: restoring the app from the stop guard`);
    try {
      for (const line of restorer ? await restorer.run() : ['nothing to restore: the run had not started'])
        print(`  ${line}`);
    } catch (error) {
      writeErr(`verify: restore failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const stop = (reason: StopReason, line: string) => {
    if (stopped !== undefined) {
      print(
        `${line}: already stopping; the app is being restored first (at most ${Math.round(options.boundMs / 1000)} s)`,
      );
      return;
    }
    stopped = reason;
    print(`\n${line}: stopping, restoring the app first`);
    controller.abort(reason);
    // Referenced on purpose: a run stuck on a promise that never settles must not just end unrestored.
    // Every way the run ends calls process.exit, so these never hold a finished run up.
    setTimeout(() => {
      if (restorer?.started() !== true)
        void restoreNow(
          `the run did not reach its cleanup ${Math.round(options.graceMs / 1000)} s after ${reason}`,
        );
    }, options.graceMs);
    setTimeout(() => {
      writeErr(
        `verify: still not done ${Math.round(options.boundMs / 1000)} s after ${reason}: exiting; check the app by hand (docs/demo.md, "If it is stopped")`,
      );
      proc.exit(reason === 'uncaught error' ? 1 : 130);
    }, options.boundMs);
  };

  for (const name of SIGNALS)
    proc.on(name, () => {
      stop(name, name);
    });
  proc.stdout.on('error', (error: NodeJS.ErrnoException) => {
    stdoutOpen = false;
    stop('closed output', `stdout closed (${error.code ?? error.message})`);
  });
  const uncaught = (error: unknown) => {
    writeErr(
      `verify: uncaught error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    stop('uncaught error', 'uncaught error');
  };
  proc.on('uncaughtException', uncaught);
  proc.on('unhandledRejection', uncaught);

  return {
    signal: controller.signal,
    reason: () => stopped,
    print,
    setRestorer: (r) => {
      restorer = r;
    },
  };
}
