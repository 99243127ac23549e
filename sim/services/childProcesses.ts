import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';

/**
 * Every service process this run started and has not stopped yet. A run that ends in any way (normal
 * exit, an error thrown halfway through setup, Ctrl-C, SIGTERM, SIGHUP, a closed stdout pipe) kills what
 * is left here, so no Azurite or redis-server outlives the test run or the demo that started it.
 */
const live = new Set<ChildProcess>();

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
/** 128 + SIGPIPE, what a shell reports for a writer whose reader went away (`npm run demo | head`). */
const BROKEN_PIPE_EXIT_CODE = 141;

let guarded = false;
let callerOwnsSignals = false;

/**
 * For a caller that handles SIGINT/SIGTERM itself because it must undo something before it exits
 * (`npm run verify` restores the app): the services are spawned in a process group of their own, so a
 * terminal's Ctrl-C reaches only the caller, and signals no longer exit the process here. Every service
 * is still killed when the process exits. Call it before the first service starts.
 */
export function callerHandlesSignals(): void {
  callerOwnsSignals = true;
}

/** Kills every tracked child at once (SIGKILL: they are throwaway, in-memory services). Synchronous. */
export function killTrackedChildren(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

function guardProcessExit(): void {
  if (guarded) return;
  guarded = true;
  process.once('exit', killTrackedChildren);
  for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) {
    if (callerOwnsSignals && signal !== 'SIGHUP') continue;
    process.once(signal, () => {
      killTrackedChildren();
      process.exit(code);
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      killTrackedChildren();
      process.exit(BROKEN_PIPE_EXIT_CODE);
    });
  }
}

/** Spawns a service process that is stopped with this process, however this process ends. */
export function spawnService(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  guardProcessExit();
  const child = spawn(command, args, callerOwnsSignals ? { ...options, detached: true } : options);
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Stops one service gracefully (SIGTERM) and resolves when it has exited. */
export function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}
