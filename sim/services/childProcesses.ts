import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';

/**
 * Every service process this run started and has not stopped yet. A run that ends in any way (normal
 * exit, an error thrown halfway through setup, Ctrl-C, SIGTERM, SIGHUP, a closed stdout pipe) kills what
 * is left here, so no Azurite or redis-server outlives the test run or the demo that started it.
 */
const live = new Set<ChildProcess>();
/** Children this run is stopping on purpose: their exit is expected, not news. */
const stopping = new WeakSet<ChildProcess>();

/** Enough of a dying service's stderr to name its reason (a port in use, a crash) in one line. */
const STDERR_TAIL_CHARS = 400;

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
    stopping.add(child);
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

export interface ServiceWatch {
  /** How the service is named when it dies (Azurite, redis-server). */
  readonly name: string;
  /** Where the one line about an unexpected exit goes; stderr by default. */
  readonly onUnexpectedExit?: (line: string) => void;
}

/**
 * Spawns a service process that is stopped with this process, however this process ends. A service
 * that exits while still in use (crashed, killed from outside) says so on stderr with its own last
 * words, so the run's next failure ("no answer within 20 s") has a cause next to it.
 */
export function spawnService(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
  watch?: ServiceWatch,
): ChildProcess {
  guardProcessExit();
  // A watched service's stderr is kept (its tail only) to name why it died.
  const withStdio: SpawnOptions =
    watch && options.stdio === 'ignore' ? { ...options, stdio: ['ignore', 'ignore', 'pipe'] } : options;
  const child = spawn(command, args, callerOwnsSignals ? { ...withStdio, detached: true } : withStdio);
  live.add(child);
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  child.once('exit', () => live.delete(child));
  if (watch)
    // 'close': the exit and the whole of stderr, so the last words are in the line.
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (stopping.has(child)) return;
      const how = signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
      const words = tail.trim().split('\n').at(-1)?.trim();
      const line = `${watch.name} exited while still in use (${how})${words ? `: ${words}` : ''}`;
      (watch.onUnexpectedExit ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
    });
  return child;
}

/** Stops one service gracefully (SIGTERM) and resolves when it has exited. */
export function stopService(child: ChildProcess): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}
