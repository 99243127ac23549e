import type { VerifyTarget } from './target';

/** A step of the run did not happen within its time; `lastSeen` says what the run saw last. */
export class StageTimeoutError extends Error {
  readonly code = 'STAGE_TIMEOUT';
  override readonly name = 'StageTimeoutError';
  constructor(
    readonly stage: string,
    readonly timeoutMs: number,
    readonly lastSeen: string,
  ) {
    super(`${stage} did not happen within ${Math.round(timeoutMs / 1000)} s; last seen: ${lastSeen}`);
  }
}

/** The run was interrupted (SIGINT, SIGTERM). */
export class VerifyInterruptedError extends Error {
  readonly code = 'INTERRUPTED';
  override readonly name = 'VerifyInterruptedError';
}

export const isStageTimeoutError = (e: unknown): e is StageTimeoutError => e instanceof StageTimeoutError;
export const isVerifyInterruptedError = (e: unknown): e is VerifyInterruptedError =>
  e instanceof VerifyInterruptedError;

export interface Waiter {
  readonly target: VerifyTarget;
  readonly signal: AbortSignal;
  /** One progress line (the stage, elapsed target time, what is seen now). */
  readonly progress: (line: string) => void;
  /** Target time the run started at (progress lines say t+…). */
  readonly startedAt: number;
  /** A still-waiting line at most this often (target time). */
  readonly progressEveryMs: number;
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new VerifyInterruptedError('interrupted');
}

/**
 * Looks at `check` until it returns a value, letting the target's time pass in between; gives up after
 * `timeoutMs` of target time with a StageTimeoutError naming what `check` saw last.
 */
export async function waitFor<T>(
  w: Waiter,
  stage: string,
  timeoutMs: number,
  check: () => Promise<{ done: T } | { seen: string }>,
): Promise<T> {
  const from = w.target.now();
  let lastLine = from;
  let seen = 'nothing yet';
  for (;;) {
    throwIfAborted(w.signal);
    const result = await check();
    if ('done' in result) return result.done;
    seen = result.seen;
    const now = w.target.now();
    if (now - from >= timeoutMs) throw new StageTimeoutError(stage, timeoutMs, seen);
    if (now - lastLine >= w.progressEveryMs) {
      lastLine = now;
      w.progress(
        `   .. ${stage}: still waiting after ${seconds(now - from)} (t+${seconds(now - w.startedAt)}): ${seen}`,
      );
    }
    await w.target.pass(w.target.pollMs, w.signal);
  }
}

export const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
