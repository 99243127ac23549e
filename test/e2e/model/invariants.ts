import type { BreakwaterWorld } from './breakwaterWorld';
import { keyOf, type ScenarioReport } from './scenario';

/** What broke in a run, in words (empty when G1, G2 incl. convergence per key, G3 and the end state hold). */
export async function invariantViolations(
  world: BreakwaterWorld,
  report: ScenarioReport,
  run: string,
  options: { readonly storeLostTrips?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  if (!report.settled)
    problems.push(
      `did not settle in ${report.seconds} s:\n${report.timeline.map((t) => `  ${t.second}s ${t.what}`).join('\n')}`,
    );
  if (world.isDisabled()) problems.push('the trigger is still disabled');

  // G1: every sent event is processed or dead-lettered; none was checkpointed past after a failure.
  const writes = world.writes.filter((w) => w.run === run);
  const processed = new Set(writes.map((w) => keyOf(w.partitionId, w.sequenceNumber)));
  const deadLettered = new Set(report.deadLetters.map((d) => keyOf(d.partitionId, d.sequenceNumber)));
  const lost = report.sent
    .map((e) => keyOf(e.partitionId, e.sequenceNumber))
    .filter((k) => !processed.has(k) && !deadLettered.has(k));
  if (lost.length > 0) problems.push(`lost ${lost.length} event(s): ${lost.slice(0, 10).join(', ')}`);
  if (report.host.checkpointedAfterFailure.length > 0)
    problems.push('the host checkpointed past a failed batch');

  // G2: per partition, the first write of each event comes in sequence order (re-runs only repeat).
  const firsts = new Map<string, number[]>();
  const seen = new Set<string>();
  for (const w of writes) {
    const key = keyOf(w.partitionId, w.sequenceNumber);
    if (seen.has(key)) continue;
    seen.add(key);
    firsts.set(w.partitionId, [...(firsts.get(w.partitionId) ?? []), w.sequenceNumber]);
  }
  for (const [partition, sequence] of firsts) {
    const sorted = [...sequence].sort((a, b) => a - b);
    if (sequence.some((s, i) => s !== sorted[i]))
      problems.push(`partition ${partition} written out of order`);
  }

  // G2 convergence: per key, the downstream holds the newest of the readings written successfully.
  const newest = new Map<string, string>();
  for (const w of writes) if (w.version > (newest.get(w.key) ?? '')) newest.set(w.key, w.version);
  const diverged: string[] = [];
  for (const [key, version] of newest) {
    const held = await world.heldVersion(key);
    if (held !== version) diverged.push(`${key} holds ${held ?? 'nothing'}, newest written ${version}`);
  }
  if (diverged.length > 0)
    problems.push(`${diverged.length} key(s) did not converge: ${diverged.slice(0, 5).join('; ')}`);

  // G3: one orchestration per trip, never a replaced instance.
  const ids = report.orchestrationIds;
  if (new Set(ids).size !== ids.length)
    problems.push(`an orchestration instance was started twice: ${ids.join(', ')}`);
  const trips = new Set((await world.runtime.breakerStore.history(100)).map((t) => `breaker-${t.tripId}`));
  // A store restarted without persistence forgets its trips: only then may an orchestration have none.
  const unknown = options.storeLostTrips ? [] : ids.filter((id) => !trips.has(id));
  if (unknown.length > 0) problems.push(`orchestrations without a trip: ${unknown.join(', ')}`);
  return problems;
}
