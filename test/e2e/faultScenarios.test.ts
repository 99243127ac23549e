import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import type { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { runScenario, type ScenarioPlan } from '../../sim/world/scenario';
import { invariantViolations } from './invariants/invariants';
import { RedisWorld } from './worlds/redisWorld';

// Named fault scenarios on the Redis breaker store (the property test explores random mixes of them).
let redisWorld: RedisWorld;
let world: BreakwaterWorld;
beforeAll(async () => {
  redisWorld = await RedisWorld.create(inject('storageConnectionString'), {
    freshModules: () => vi.resetModules(),
  });
  world = redisWorld.world;
});
afterAll(() => redisWorld.close());

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

describe('fault scenarios', () => {
  it('poison events during an outage are dead-lettered, the rest held and then processed', async () => {
    const plan: ScenarioPlan = { ...base('poison'), poisonEvery: 7, outages: [{ from: 3, to: 40 }] };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    const poison = report.deadLetters.filter((d) => d.reason === 'poison');
    expect(poison).toHaveLength(Math.floor(plan.events / plan.poisonEvery));
    expect(report.orchestrationIds).toHaveLength(1);
  }, 120_000);

  it('Redis restarted mid-run (empty): processing goes on, the outage is held though the breaker cannot count, nothing lost', async () => {
    const plan: ScenarioPlan = {
      ...base('redis-restart'),
      outages: [{ from: 4, to: 12 }],
      happenings: [
        { at: 2, what: 'Redis STOPPED', run: () => redisWorld.stopRedis() },
        {
          at: 9,
          what: 'Redis RESTARTED (empty)',
          run: () => redisWorld.restartRedisEmpty(),
        },
      ],
      minSeconds: 10,
    };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    expect(report.timeline.map((t) => t.what)).toEqual(
      expect.arrayContaining(['Redis STOPPED', 'Redis RESTARTED (empty)']),
    );
    // While the store was down the breaker could not count, yet the outage's failures were held, not
    // dead-lettered: holding does not depend on the breaker.
    expect(report.deadLetters.filter((d) => d.reason !== 'poison')).toEqual([]);
    expect(report.host.invocations.some((i) => i.outcome === 'threw')).toBe(true);
    // The store was observed down, and the gate is healthy again.
    expect(report.timeline.map((t) => t.what)).toContain('breaker UNREACHABLE');
    expect(world.runtime.breaker.health().ok).toBe(true);
  }, 120_000);

  it('Redis restarted empty while OPEN forgets the trip; the emailed approval still restarts the trigger', async () => {
    const plan: ScenarioPlan = {
      ...base('redis-lost'),
      outages: [{ from: 2, to: 30 }],
      approveAfter: 100,
      happenings: [
        { at: 20, what: 'Redis STOPPED', run: () => redisWorld.stopRedis() },
        {
          at: 25,
          what: 'Redis RESTARTED (empty)',
          run: () => redisWorld.restartRedisEmpty(),
        },
      ],
      minSeconds: 26,
    };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run, { storeLostTrips: true })).toEqual([]);
    expect(report.approvals.at(-1)?.postStatus).toBe(200);
    const status = [...world.durable.hosts.values()].at(-1)?.customStatus as {
      phase?: string;
      detail?: string;
    };
    expect(status).toMatchObject({
      phase: 'closed',
      detail: expect.stringMatching(/lost the trip/) as unknown,
    });
  }, 120_000);

  it('a crash takes every partition of the instance; re-delivery and the idempotent sink absorb it', async () => {
    const plan: ScenarioPlan = {
      ...base('crash'),
      crashes: [
        { at: 1, partition: 0 },
        { at: 5, partition: 2 },
      ],
    };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    // A crash ends every invocation the instance has in flight, not only the one of its partition.
    const crashed = report.host.invocations.filter((i) => i.outcome === 'crashed');
    const rounds = [...new Set(crashed.map((i) => i.at))];
    expect(rounds).toHaveLength(2);
    for (const at of rounds)
      expect(report.host.invocations.filter((i) => i.at === at).map((i) => i.outcome)).toEqual(
        Array.from({ length: plan.partitions }, () => 'crashed'),
      );
    const repeated = world.writes.filter((w) => w.run === plan.run).length - report.sent.length;
    expect(repeated).toBeGreaterThan(0);
  }, 120_000);

  it('many partitions failing at once trip the breaker exactly once', async () => {
    const plan: ScenarioPlan = {
      ...base('race'),
      partitions: 8,
      events: 640,
      outages: [{ from: 2, to: 30 }],
    };
    const report = await runScenario(world, plan);
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    expect(report.orchestrationIds).toHaveLength(1);
    expect(report.approvals).toHaveLength(1);
  }, 120_000);
});
