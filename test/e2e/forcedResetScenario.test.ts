import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { runScenario, type ScenarioPlan } from '../../sim/world/scenario';
import { invariantViolations } from './invariants/invariants';
import { forcedReset, withHostileEvents } from './property/operatorFaults';

// The hardening review's races, end to end: an operator's break-glass reset while the orchestration is
// still retrying a failed ARM disable, and events no dead letter used to fit.
let world: BreakwaterWorld;
beforeAll(async () => {
  world = await BreakwaterWorld.create({ storageConnectionString: inject('storageConnectionString') });
});
afterAll(() => world.close());

const base = (run: string): ScenarioPlan => ({
  run,
  partitions: 4,
  events: 240,
  sendSeconds: 20,
  homes: 13,
  poisonEvery: 0,
  outages: [],
  approveAfter: 60,
  crashes: [],
  maxSeconds: 900,
});

describe('forced reset and hostile events', () => {
  it('a forced reset while a failed ARM disable is retried does not leave the trigger disabled', async () => {
    const resets: number[] = [];
    const plan: ScenarioPlan = {
      ...base('forced-reset'),
      outages: [{ from: 2, to: 30 }],
      happenings: [
        {
          at: 0,
          what: 'ARM failing',
          run: () => {
            world.arm.failNext('update', 503, 10_000);
            return Promise.resolve();
          },
        },
        {
          at: 8,
          what: 'operator FORCED reset',
          run: async () => {
            resets.push(await forcedReset(world));
          },
        },
        {
          at: 9,
          what: 'ARM back',
          run: () => {
            world.arm.clearFailures();
            return Promise.resolve();
          },
        },
      ],
      minSeconds: 10,
    };
    const report = await runScenario(world, plan);
    // The reset closed the circuit; ARM was still failing, so it says the enable did not go through.
    expect(resets).toEqual([502]);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    const [first] = report.orchestrationIds;
    expect(world.durable.hosts.get(first ?? '')?.runtimeStatus).toBe('Terminated');
  }, 120_000);

  it('oversized events with control characters are dead-lettered and hold nothing', async () => {
    const plan: ScenarioPlan = { ...base('hostile') };
    const report = await runScenario(world, { ...plan, makeEvent: withHostileEvents(plan, 10) });
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    expect(report.deadLetters.filter((d) => d.reason === 'poison')).toHaveLength(plan.events / 10);
    expect(report.host.invocations.every((i) => i.outcome !== 'threw')).toBe(true);
  }, 120_000);
});
