import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { runScenario, type ScenarioPlan } from '../../sim/world/scenario';
import { BreakerActivity } from '../../src/orchestration/activityNames';
import { invariantViolations } from './invariants/invariants';
import { emailsPerTrip } from './invariants/tripEmails';

// Named scenarios on the host model where Azure is unkind: the restarts that settings changes cause
// (the breaker's own switch included), the old extension, partitions moving, timeouts.
let world: BreakwaterWorld;
beforeAll(async () => {
  world = await BreakwaterWorld.create({
    storageConnectionString: inject('storageConnectionString'),
    freshModules: () => vi.resetModules(),
  });
});
afterAll(() => world.close());

const outage = (run: string): ScenarioPlan => ({
  run,
  partitions: 4,
  events: 240,
  sendSeconds: 20,
  homes: 13,
  poisonEvery: 0,
  outages: [{ from: 3, to: 40 }],
  // The operator approves after the downstream is back (approving earlier re-trips: outageScenario).
  approveAfter: 60,
  crashes: [],
  maxSeconds: 900,
});

const activityRuns = (name: string) =>
  [...world.durable.hosts.values()]
    .at(-1)
    ?.activityRuns.filter((r) => r.name === name)
    .map((r) => (r.outcome.ok ? 'ok' : r.outcome.error)) ?? [];

describe('every settings change restarts the host', () => {
  it('the breaker switch restarts it twice; the activity that switched is killed and re-run; one email of each kind', async () => {
    const before = world.runtime;
    const plan = outage('restarts');
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    expect(report.host.restarts.map((r) => r.reason)).toEqual([
      'app settings changed',
      'app settings changed',
    ]);
    // The app was rebuilt as a new process: new runtime, new store client, new gate cache.
    expect(world.runtime).not.toBe(before);
    // Killed by the restart it caused, after its write; run again, it finds the switch set: no second write.
    expect(activityRuns(BreakerActivity.disableTrigger)).toEqual(['aborted', 'ok']);
    expect(activityRuns(BreakerActivity.enableTrigger)).toEqual(['aborted', 'ok']);
    expect([...emailsPerTrip(world, 'tripped', report.mailsBefore).values()]).toEqual([1]);
    expect([...emailsPerTrip(world, 'resumed', report.mailsBefore).values()]).toEqual([1]);
  }, 240_000);

  it('an unrelated settings edit during the outage drops the held batches without losing them', async () => {
    const plan: ScenarioPlan = { ...outage('edit'), settingsEdits: [{ at: 8 }, { at: 25 }], minSeconds: 26 };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    expect(report.host.restarts.length).toBeGreaterThanOrEqual(4);
  }, 240_000);
});

describe('the old Event Hubs extension (bundles before 4.28.0)', () => {
  it('LOSES the held batches on the restart that the breaker own Disabled switch causes', async () => {
    const plan: ScenarioPlan = { ...outage('old-extension'), extension: '5.x' };
    const report = await runScenario(world, plan);
    const problems = await invariantViolations(world, report, plan.run);
    expect(report.host.checkpointedOnShutdown.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(/^lost \d+ event\(s\)/m);
  }, 240_000);
});

describe('partitions moving between instances', () => {
  it('a steal while the old owner retries a held batch: overlapping invocations, nothing lost, the sink converges', async () => {
    const plan: ScenarioPlan = {
      ...outage('steal'),
      instances: 2,
      // ARM refuses the first three writes: the disable comes late and the instances hold batches meanwhile.
      happenings: [
        {
          at: 0,
          what: 'ARM answers 500 to settings updates',
          run: () => {
            world.arm.failNext('update', 500, 3);
            return Promise.resolve();
          },
        },
      ],
      steals: [
        { at: 6, partition: 0 },
        { at: 12, partition: 1, to: 0 },
        { at: 45, partition: 2 },
      ],
      minSeconds: 46,
    };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    // Two instances ran the same partition in the same round: the old owner's retry and the new owner.
    const byRound = new Map<string, Set<string>>();
    for (const i of report.host.invocations) {
      const key = `${i.at}/${i.partitionId}`;
      byRound.set(key, (byRound.get(key) ?? new Set()).add(i.instanceId));
    }
    expect([...byRound.values()].some((owners) => owners.size > 1)).toBe(true);
    // More than the 3 steals: an old owner retrying a held batch renews no lease (its balancing is
    // frozen), so its other partitions lapse and move with the stolen one.
    expect(report.host.instances.moves).toBeGreaterThan(3);
  }, 240_000);
});

describe('timeouts', () => {
  it('a timed-out invocation is re-run (not checkpointed) and its worker restart fails the instance in flight', async () => {
    const plan: ScenarioPlan = {
      ...outage('timeout'),
      outages: [],
      timeouts: [{ at: 2, partition: 1 }],
      minSeconds: 3,
    };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    const timedOut = report.host.invocations.find((i) => i.outcome === 'timed-out');
    expect(timedOut).toBeDefined();
    const sameRound = report.host.invocations.filter((i) => i.at === timedOut?.at && i !== timedOut);
    expect(sameRound.length).toBeGreaterThan(0);
    expect(
      sameRound.every((i) => i.outcome === 'threw' && /worker process restarted/.test(i.error ?? '')),
    ).toBe(true);
    const rerun = report.host.invocations.find(
      (i) =>
        i.partitionId === timedOut?.partitionId &&
        i.firstSequence === timedOut.firstSequence &&
        i.retryCount === 1,
    );
    expect(rerun?.outcome).toBe('returned');
    expect(report.host.restarts.map((r) => r.reason)).toContain('instance i0 restarted');
  }, 240_000);
});
