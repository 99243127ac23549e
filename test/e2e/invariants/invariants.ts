import type { HubEvent } from '../../../sim/host/eventHubModel';
import type { BreakwaterWorld, SinkWrite } from '../../../sim/world/breakwaterWorld';
import { orderingOf, supersededInItsBatch } from '../../../sim/world/orderingInWorld';
import { keyOf, type ScenarioReport } from '../../../sim/world/scenario';
import { convergenceViolations } from './convergence';
import { emailsPerTrip } from './tripEmails';

/**
 * What broke in a run, in words (empty when the guarantees hold as Azure can promise them): nothing
 * lost (expired in the hub unprocessed counts as lost; saved by the retention guard does not mid-run, while
 * the blob is still there; at the end only the sink and the dead-letter store count); per key the sink converges on the key's last event in partition order; each invocation applies
 * its events in order (and with one instance and no moves, each partition is written in order), per
 * key with ORDERING=key; one
 * orchestration and one trip email per trip, at most one "resumed" email; ends enabled and settled, with
 * every saved event drained to the sink. With `midRun` (a report of a run still going, e.g. a trip nobody
 * approved yet) only what holds at any second: nothing lost (waiting events are held or saved), order,
 * convergence of what was written, at most one orchestration and email per trip.
 */
export async function invariantViolations(
  world: BreakwaterWorld,
  report: ScenarioReport,
  run: string,
  options: { readonly storeLostTrips?: boolean; readonly midRun?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const settling = !options.midRun;
  if (settling && !report.settled)
    problems.push(
      `did not settle in ${report.seconds} s:\n${report.timeline.map((t) => `  ${t.second}s ${t.what}`).join('\n')}`,
    );
  if (settling && world.isDisabled()) problems.push('the trigger is still disabled');

  // G1: every sent event is processed, dead-lettered, saved mid-run (the retention guard's blob
  // saved/<partition>/<sequence>.json in the dead-letter container, still there) or held: still retained in the hub
  // at or after its partition's checkpoint. An event checkpointed past unprocessed, or one that expired
  // in the hub past its retention unprocessed, is lost. With ORDERING=key a reading a newer one of its
  // key superseded in its batch is processed unwritten.
  const byKey = orderingOf(world) === 'key';
  const writes = world.writes.filter((w) => w.run === run);
  const processed = new Set(writes.map((w) => keyOf(w.partitionId, w.sequenceNumber)));
  const deadLettered = new Set(report.deadLetters.map((d) => keyOf(d.partitionId, d.sequenceNumber)));
  const superseded = byKey
    ? supersededInItsBatch(writes, [...report.host.invocations, ...world.savedFaults.reads])
    : () => false;
  const expired = new Set(report.expired.map((e) => keyOf(e.partitionId, e.sequenceNumber)));
  const held = (e: HubEvent) =>
    !expired.has(keyOf(e.partitionId, e.sequenceNumber)) &&
    e.sequenceNumber >= report.host.checkpoint(e.partitionId);
  // Saved counts only while it is still there mid-run (a run nobody approved yet): at the end of a run
  // that settled (breaker CLOSED, trigger on) every saved event must have reached the sink or the
  // dead-letter store, a blob once seen under saved/ is no outcome.
  const stillSaved = (k: string) => !settling && report.savedLeft.has(k);
  const lost = report.sent
    .filter((e) => !superseded(e) && !held(e))
    .map((e) => keyOf(e.partitionId, e.sequenceNumber))
    .filter((k) => !processed.has(k) && !deadLettered.has(k) && !stillSaved(k));
  const expiredLost = lost.filter((k) => expired.has(k)).length;
  if (lost.length > 0)
    problems.push(
      `lost ${lost.length} event(s)${
        expiredLost > 0 ? ` (${expiredLost} expired in the hub past its retention unprocessed)` : ''
      }: ${lost.slice(0, 10).join(', ')}`,
    );
  // Saved is an outcome only until the approval: a settled run drained every saved event to the sink.
  if (settling && report.savedLeft.size > 0)
    problems.push(
      `${report.savedLeft.size} saved event(s) not drained to the sink: ${[...report.savedLeft].slice(0, 10).join(', ')}`,
    );
  if (report.host.checkpointedAfterFailure.length > 0)
    problems.push('the host checkpointed past a failed batch');
  if (report.host.checkpointedOnShutdown.length > 0)
    problems.push(
      `the host checkpointed past ${report.host.checkpointedOnShutdown.length} held event(s) on shutdown`,
    );

  // G2: convergence per key, order within each invocation, and per partition where Azure promises it.
  // The final row equals the key's last processed event in partition order (read from the table).
  if (world.downstream.kind === 'table')
    problems.push(...(await convergenceViolations(world, report.sent, processed, `home-${run}-`)));
  problems.push(
    ...orderViolations(
      writes,
      report.host.instances.moves === 0 && report.host.instances.all.length === 1,
      byKey,
    ),
  );

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

  // G3: one orchestration per trip, each with one trip email; at most one "resumed" email per trip.
  const ids = new Set(report.orchestrationIds);
  const trips = new Set((await world.runtime.breakerStore.history(100)).map((t) => `breaker-${t.tripId}`));
  // A store restarted without persistence forgets its trips: only then may an orchestration have none.
  const unknown = options.storeLostTrips ? [] : [...ids].filter((id) => !trips.has(id));
  if (unknown.length > 0) problems.push(`orchestrations without a trip: ${unknown.join(', ')}`);
  const running = [...world.durable.hosts.values()].filter((h) => h.runtimeStatus === 'Running');
  if (settling && running.length > 0) problems.push(`${running.length} orchestration(s) still running`);
  for (const [kind, most] of [
    ['tripped', 1],
    ['resumed', 1],
  ] as const) {
    for (const [trip, n] of emailsPerTrip(world, kind, report.mailsBefore))
      if (n > most) problems.push(`trip ${trip} got ${n} "${kind}" emails`);
  }
  const tripMails = emailsPerTrip(world, 'tripped', report.mailsBefore).size;
  // An orchestration whose trip the store forgot ends without notice (it is superseded), and one that
  // an operator's forced reset terminated may end before its email; mid-run one may not have sent it yet.
  const terminated = [...ids].filter((id) => world.durable.hosts.get(id)?.runtimeStatus === 'Terminated');
  const fewest = settling ? ids.size - terminated.length : 0;
  if (!options.storeLostTrips && (tripMails > ids.size || tripMails < fewest))
    problems.push(`${ids.size} orchestration(s) but ${tripMails} trip email(s)`);
  return problems;
}

/**
 * Within an invocation, first writes come in sequence order; with `perPartition`, across the run too;
 * with `byKey` (ORDERING=key) that order holds per key (home, sensor) within the partition.
 */
function orderViolations(writes: readonly SinkWrite[], perPartition: boolean, byKey: boolean): string[] {
  const problems: string[] = [];
  const streams = new Map<string, number[]>();
  const seen = new Set<string>();
  for (const w of writes) {
    const event = keyOf(w.partitionId, w.sequenceNumber);
    const partition = byKey ? `${w.partitionId} key ${w.key}` : w.partitionId;
    const stream = perPartition ? partition : `${w.invocationId}/${partition}`;
    const once = perPartition ? event : `${w.invocationId}/${event}`;
    if (seen.has(once)) continue;
    seen.add(once);
    streams.set(stream, [...(streams.get(stream) ?? []), w.sequenceNumber]);
  }
  for (const [stream, sequence] of streams) {
    if (sequence.some((s, i) => i > 0 && s < (sequence[i - 1] ?? 0)))
      problems.push(`${perPartition ? 'partition' : 'invocation'} ${stream} written out of order`);
  }
  return problems;
}
