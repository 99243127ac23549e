import { RestError } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { nextRetryDueAt } from '../../sim/host/hostConfig';
import { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { keyOf, runScenario, type ScenarioPlan, type ScenarioReport } from '../../sim/world/scenario';
import { invariantViolations } from './invariants/invariants';

// Named scenario: one event the downstream always refuses with a 504 (outage-like) among
// healthy ones. Its batch is held for ISOLATE_AFTER_RERUNS re-runs, then the event is dead-lettered as
// isolated and the partition moves on; the other partitions never wait and the breaker never trips.
let world: BreakwaterWorld;
beforeAll(async () => {
  world = await BreakwaterWorld.create({ storageConnectionString: inject('storageConnectionString') });
});
afterAll(() => world.close());

const BAD = 57;
const plan: ScenarioPlan = {
  run: 'isolated',
  partitions: 4,
  events: 400,
  sendSeconds: 20,
  homes: 29,
  poisonEvery: 0,
  outages: [],
  approveAfter: 60,
  crashes: [],
  maxSeconds: 300,
};

describe('an isolated, always-failing event among healthy ones', () => {
  let report: ScenarioReport;
  beforeAll(async () => {
    world.refuseWrites = (_reading, event) =>
      event.properties.run === plan.run && event.properties.n === BAD
        ? new RestError('gateway timeout for this one record', { statusCode: 504 })
        : undefined;
    try {
      report = await runScenario(world, plan);
    } finally {
      world.refuseWrites = undefined;
    }
  }, 120_000);

  const bad = () => {
    const event = report.sent.find((e) => e.properties.n === BAD);
    if (!event) throw new Error('the bad event was not sent');
    return event;
  };
  const runsOfBadBatch = () =>
    report.host.invocations.filter(
      (i) =>
        i.partitionId === bad().partitionId &&
        i.firstSequence <= bad().sequenceNumber &&
        bad().sequenceNumber <= i.lastSequence,
    );

  it('is dead-lettered as isolated after the set number of re-runs, and nothing else is', async () => {
    const { isolateAfterReruns } = world.runtime.config.processing.outage;
    expect(isolateAfterReruns).toBe(3);
    expect(report.deadLetters.map((d) => [keyOf(d.partitionId, d.sequenceNumber), d.reason])).toEqual([
      [keyOf(bad().partitionId, bad().sequenceNumber), 'isolated'],
    ]);
    const runs = runsOfBadBatch();
    expect(runs.map((r) => [r.retryCount, r.outcome])).toEqual([
      [0, 'threw'],
      [1, 'threw'],
      [2, 'threw'],
      [3, 'returned'],
    ]);
    // Held with healthy events in the batch: the others were written on every run, the bad one never.
    expect(runs[0]!.lastSequence).toBeGreaterThan(runs[0]!.firstSequence);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
  });

  it("delays its partition by at most the sum of the host's retry intervals for those re-runs", () => {
    const { minimumIntervalSeconds: min, maximumIntervalSeconds: max } = world.runtime.config.triggerRetry;
    // The host's longest delay for each re-run (its randomised backoff at the top of its range), each
    // waited out in the host model's whole-second ticks.
    const policy = { maxRetryCount: -1, minimumMs: min * 1000, maximumMs: max * 1000 };
    const longest = (n: number) => nextRetryDueAt(policy, n, 0, () => 1 - Number.EPSILON) ?? 0;
    const bound = [0, 1, 2].reduce((sum, n) => sum + Math.ceil(longest(n) / 1000) * 1000, 0);
    const runs = runsOfBadBatch();
    const heldFor = runs.at(-1)!.at - runs[0]!.at;
    expect(heldFor).toBeGreaterThan(0);
    expect(heldFor).toBeLessThanOrEqual(bound);
  });

  it('does not delay the other partitions: every event written the second it arrived, no re-run', () => {
    const others = report.sent.filter((e) => e.partitionId !== bad().partitionId);
    expect(others.length).toBeGreaterThan(0);
    const firstWrite = new Map<string, number>();
    for (const w of world.writes.filter((x) => x.run === plan.run)) {
      const key = keyOf(w.partitionId, w.sequenceNumber);
      if (!firstWrite.has(key)) firstWrite.set(key, w.at);
    }
    const late = others.filter(
      (e) => firstWrite.get(keyOf(e.partitionId, e.sequenceNumber)) !== Date.parse(e.enqueuedTimeUtc),
    );
    expect(late).toEqual([]);
    const otherRuns = report.host.invocations.filter((i) => i.partitionId !== bad().partitionId);
    expect(otherRuns.filter((i) => i.outcome !== 'returned')).toEqual([]);
  });

  it('does not trip the breaker', () => {
    expect(report.orchestrationIds).toEqual([]);
    expect(report.timeline.map((t) => t.what)).not.toContain('breaker OPEN');
  });
});
