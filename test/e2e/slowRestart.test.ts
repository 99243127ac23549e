import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { runScenario, type ScenarioPlan } from '../../sim/world/scenario';
import { sendActivityName } from '../../src/orchestration/activityNames';
import { invariantViolations } from './invariants/invariants';
import { emailsPerTrip } from './invariants/tripEmails';

// After the ARM write the old instances keep running for seconds, then the restart kills them mid-work
// (platform-facts: "Disabling a function through app settings"). Each activity spans 1 s on the worker:
// openTrip [0, 1), disable [1, 2) writes the setting, the trip email [2, 3). A restart that lands 2.5 s
// after the write kills the email activity after it sent, and the extension runs it again.
let world: BreakwaterWorld;
beforeAll(async () => {
  world = await BreakwaterWorld.create({
    storageConnectionString: inject('storageConnectionString'),
    freshModules: () => vi.resetModules(),
    timing: { restartDelayMs: () => 2_500, redeliveryMs: () => 30_000 },
  });
});
afterAll(() => world.close());

const plan: ScenarioPlan = {
  run: 'slow-restart',
  partitions: 4,
  events: 200,
  sendSeconds: 20,
  homes: 13,
  poisonEvery: 0,
  outages: [{ from: 3, to: 40 }],
  approveAfter: 60,
  crashes: [],
  maxSeconds: 900,
};

const activityRuns = (name: string) =>
  [...world.durable.hosts.values()]
    .at(-1)
    ?.activityRuns.filter((r) => r.name === name)
    .map((r) => (r.outcome.ok ? 'ok' : r.outcome.error)) ?? [];

describe('a restart that takes its time', () => {
  it('kills the trip email activity after it sent; the re-run sends nothing twice', async () => {
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    // The kill landed inside the email activity (the first email run was aborted, then re-run).
    expect(activityRuns(sendActivityName('email')).slice(0, 2)).toEqual(['aborted', 'ok']);
    expect(report.host.restartDelays[0]).toBe(2_500);
    expect([...emailsPerTrip(world, 'tripped', report.mailsBefore).values()]).toEqual([1]);
    expect([...emailsPerTrip(world, 'resumed', report.mailsBefore).values()]).toEqual([1]);
  }, 240_000);
});
