import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Live processes (Linux /proc) whose environment carries `marker`: every descendant of a child started
 * with it inherits it, so this finds Azurite or redis-server even after they were re-parented.
 */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${entry}/status`, 'latin1'))?.[1];
      if (state !== 'Z' && environ.split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '(gone)';
  }
};

/**
 * Polls until no process carries the marker (killed processes are reaped within milliseconds; the
 * bound only matters on a loaded machine) and returns the command lines of those still left.
 */
export async function untilNoneLeft(marker: string, timeoutMs = 10_000): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = processesWithMarker(marker);
    if (left.length === 0 || Date.now() > until) return left.map(commandLine);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Marked {
  readonly child: ChildProcess;
  readonly marker: string;
  /** Resolves with everything written to stdout once `text` has appeared in it. */
  readonly stdoutHas: (text: string) => Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * Runs a TypeScript entry the way `npm run demo` does (`node --import tsx`, this run's Node, no relaying
 * parent process), marked for the search above.
 */
export function runMarked(entry: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Marked {
  const marker = `BREAKWATER_TEST_MARK=${Math.random().toString(36).slice(2)}`;
  const [key, value] = marker.split('=') as [string, string];
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, [key]: value },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      child.once('exit', (code, signal) => {
        resolve({ code, signal, stderr: err });
      });
    },
  );
  const stdoutHas = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (out.includes(text)) {
          child.stdout.off('data', check);
          resolve(out);
        }
      };
      child.stdout.on('data', check);
      void exited.then(() => {
        reject(new Error(`exited before printing '${text}': ${out}\n${err}`));
      });
      check();
    });
  return { child, marker, stdoutHas, exited };
}
