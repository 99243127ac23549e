import { randomBytes } from 'node:crypto';

import { makeAppClient } from './appClient';
import { type Restoration, restoreApp } from './cleanup';
import { finishRun } from './finish';
import { phaseRange, poisonCount, type PublishPhase, type VerifyPlan } from './plan';
import { publishRange } from './publish';
import type { Milestones, RunCounts } from './report';
import type { RunContext, RunDeps, RunSettings } from './runContext';
import { runSteps } from './steps';
import type { VerifyTarget } from './target';
import { isStageTimeoutError, isVerifyInterruptedError, seconds, throwIfAborted, waitFor } from './waitFor';

export type { RunDeps, RunSettings } from './runContext';

/** The longest the cleanup may take (each call in it is bounded too; ARM writes restart the app). */
export const RESTORE_BOUND_MS = 150_000;

/**
 * The cleanup, run at most once whoever asks first (the run's end or the stop guard) and bounded in
 * time: a second run of it would undo nothing more, and two at once could interleave their writes.
 */
function restoreOnce(restore: () => Promise<Restoration>) {
  let running: Promise<Restoration> | undefined;
  return {
    started: () => running !== undefined,
    run(): Promise<Restoration> {
      running ??= bounded(restore());
      return running;
    },
  };
}

async function bounded(restoring: Promise<Restoration>): Promise<Restoration> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Restoration>((resolve) => {
    timer = setTimeout(() => {
      resolve({
        lines: [
          `the restore did not finish within ${RESTORE_BOUND_MS / 1000} s: check the app by hand (docs/demo.md)`,
        ],
        restored: false,
      });
    }, RESTORE_BOUND_MS);
  });
  try {
    return await Promise.race([restoring, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface VerifyResult {
  readonly exitCode: number;
  readonly counts: RunCounts | undefined;
  readonly milestones: Milestones;
  readonly restoration: Restoration;
  readonly failure: string | undefined;
}

const PHASE_WORDS: Record<PublishPhase, string> = {
  before: 'before the fault',
  outage: 'with the downstream down',
  open: 'while the breaker is OPEN',
};

/**
 * The whole run against one target (USAGE in args.ts): the steps, then the cleanup whatever happened
 * (interrupted included), then the accounting and the report. Exit code 0 only when every step happened
 * in time, nothing was lost or left held and the app was restored; 130 when interrupted.
 */
export async function runVerify(
  target: VerifyTarget,
  settings: RunSettings,
  deps: RunDeps,
): Promise<VerifyResult> {
  const { print } = deps;
  const plan: VerifyPlan = {
    run: settings.run ?? `v${randomBytes(4).toString('hex')}`,
    events: settings.events,
    poisonEvery: settings.poisonEvery,
    homes: settings.homes,
  };
  const startedAt = target.now();
  const producer = target.createProducer();
  const elapsed = () => `t+${seconds(target.now() - startedAt)}`;
  const c: RunContext = {
    target,
    client: makeAppClient(target.app),
    plan,
    settings,
    print,
    signal: deps.signal,
    by: `npm run verify (run ${plan.run})`,
    // Blob times are the storage's wall clock; two minutes of slack for clock skew.
    wallSince: new Date(Date.now() - 120_000),
    milestones: {},
    changes: { faultSwitchEnabled: false, faultSet: false },
    publishedUpTo: 0,
    checkpoints: { start: new Map(), faultOn: new Map() },
    elapsed,
    mark(name, line) {
      c.milestones[name] = target.now();
      print(`OK ${line} (${elapsed()})`);
      deps.onMilestone?.(name);
    },
    wait(stage, check) {
      print(`-> waiting: ${stage} (${elapsed()})`);
      const waiter = { target, signal: deps.signal, progress: print, startedAt, progressEveryMs: 30_000 };
      return waitFor(waiter, stage, settings.stageTimeoutMs, check);
    },
    async publish(phase) {
      throwIfAborted(deps.signal);
      const range = phaseRange(plan, phase);
      const sent = await publishRange(producer, plan, range, target.now());
      c.publishedUpTo = range[1];
      print(`OK published ${sent} readings ${PHASE_WORDS[phase]} (${elapsed()})`);
    },
  };
  const restorer = restoreOnce(() => restoreApp(c.client, target, c.by, c.changes));
  deps.onRestorer?.({ run: async () => (await restorer.run()).lines, started: restorer.started });
  print(
    `Breakwater verify, run ${plan.run}: ${plan.events} readings (${poisonCount(plan)} poison) over ${plan.homes} partition keys, target ${target.kind}`,
  );
  for (const line of target.describe) print(`  ${line}`);
  print('');

  let failure: string | undefined;
  let interrupted = false;
  try {
    await runSteps(c);
  } catch (error) {
    interrupted = isVerifyInterruptedError(error);
    failure = interrupted
      ? 'interrupted'
      : isStageTimeoutError(error) || error instanceof Error
        ? error.message
        : String(error);
    print(`!! ${failure} (${elapsed()})`);
  }
  await producer.close().catch(() => undefined);
  print('');
  print('Restoring the app:');
  const restoration = await restorer.run();
  for (const line of restoration.lines) print(`  ${line}`);
  const { exitCode, counts } = await finishRun(c, { failure, interrupted, restoration });
  return { exitCode, counts, milestones: c.milestones, restoration, failure };
}
