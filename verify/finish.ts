import { accountRun, readCheckpointPositions } from './accounting';
import type { Restoration } from './cleanup';
import { countRun, formatCheckpoints, formatCounts, formatTimings, type RunCounts } from './report';
import type { RunContext } from './runContext';

/**
 * Accounts for every event the run published (all of them, or the phases it reached), prints the
 * report and returns the exit code: 0 only with every step done, lost 0, held 0 and the app restored.
 */
export async function finishRun(
  c: RunContext,
  outcome: {
    readonly failure: string | undefined;
    readonly interrupted: boolean;
    readonly restoration: Restoration;
  },
): Promise<{ exitCode: number; counts: RunCounts | undefined }> {
  const { target, client, plan, milestones: m, print } = c;
  const published = c.publishedUpTo;
  let counts: RunCounts | undefined;
  if (published > 0) {
    const found = await accountRun(target.stores, plan, target.functionName, c.wallSince).catch(
      () => undefined,
    );
    const held = (await client.status().catch(() => undefined))?.held;
    if (found) counts = countRun(published, found, held?.known === true ? (held.total ?? 0) : 0);
  }
  const end = await readCheckpointPositions(target.stores).catch(() => new Map<string, number | undefined>());
  print('');
  print(`Report (run ${plan.run}, target ${target.kind})`);
  for (const line of counts ? formatCounts(counts) : ['  nothing published, nothing to account for'])
    print(line);
  print(
    target.kind === 'local'
      ? '  timings in simulated seconds (the simulator runs on virtual time; the wall time is below):'
      : '  timings (wall clock):',
  );
  for (const line of formatTimings(m)) print(line);
  print(
    '  checkpoints (last sequence number processed per partition: at start / at the fault → at the end):',
  );
  for (const line of formatCheckpoints(c.checkpoints.start, c.checkpoints.faultOn, end)) print(line);
  const ok =
    outcome.failure === undefined && counts?.lost === 0 && counts.held === 0 && outcome.restoration.restored;
  const exitCode = outcome.interrupted ? 130 : ok ? 0 : 1;
  print(
    `lost ${counts?.lost ?? '?'}${outcome.failure ? `; failed: ${outcome.failure}` : ''}` +
      (outcome.restoration.restored ? '' : '; the app was NOT fully restored (see above)'),
  );
  return { exitCode, counts };
}
