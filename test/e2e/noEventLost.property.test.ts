import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import type { BreakwaterWorld } from './model/breakwaterWorld';
import { invariantViolations } from './model/invariants';
import { RedisWorld } from './model/redisWorld';
import { runScenario, type ScenarioPlan } from './model/scenario';

// Random fault schedules against the whole app: downstream outages, poison events, breaker-store
// (Redis) outages, crashes, approval delays, partition counts and batch sizes. After recovery nothing
// is lost, partitions are written in order, every trip has exactly one orchestration and the trigger
// is enabled. PROPERTY_RUNS and PROPERTY_SEED replay or widen the search (`npm run soak`).
const runs = Number(process.env.PROPERTY_RUNS ?? 8);
const seed = Number(process.env.PROPERTY_SEED ?? 20261129);

let redisWorld: RedisWorld;
let world: BreakwaterWorld;
beforeAll(async () => {
  redisWorld = await RedisWorld.create(inject('storageConnectionString'), {
    freshModules: () => vi.resetModules(),
  });
  world = redisWorld.world;
});
afterAll(() => redisWorld.close());

/** A fault window that starts while events are still being sent. */
const windowDuring = (sendSeconds: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: sendSeconds }), fc.integer({ min: 3, max: 90 }))
    .map(([from, length]) => ({ from, to: from + length }));

const planArbitrary = fc
  .record({
    partitions: fc.integer({ min: 1, max: 4 }),
    events: fc.integer({ min: 20, max: 300 }),
    sendSeconds: fc.integer({ min: 5, max: 40 }),
    homes: fc.integer({ min: 1, max: 20 }),
    poisonEvery: fc.oneof(fc.constant(0), fc.integer({ min: 3, max: 15 })),
    approveAfter: fc.integer({ min: 1, max: 200 }),
  })
  .chain((base) =>
    fc.record({
      base: fc.constant(base),
      outages: fc.array(windowDuring(base.sendSeconds), { maxLength: 2 }),
      crashes: fc.array(
        fc.record({
          at: fc.integer({ min: 0, max: base.sendSeconds }),
          partition: fc.integer({ min: 0, max: 3 }),
        }),
        { maxLength: 2 },
      ),
      storeOutage: fc.option(windowDuring(base.sendSeconds), { nil: undefined }),
    }),
  );

let runNumber = 0;
let trips = 0;
let storeOutages = 0;

describe('property: nothing is lost under random fault schedules', () => {
  it(
    'holds G1 (zero lost), G2 (order), G3 (one orchestration per trip) and ends enabled and CLOSED',
    async () => {
      await fc.assert(
        fc.asyncProperty(planArbitrary, async (arbitrary) => {
          const run = `p${++runNumber}`;
          const { base, outages, crashes, storeOutage } = arbitrary;
          const lastFault = Math.max(
            0,
            ...outages.map((o) => o.to),
            ...crashes.map((c) => c.at),
            storeOutage?.to ?? 0,
          );
          const plan: ScenarioPlan = {
            ...base,
            outages,
            crashes,
            run,
            minSeconds: lastFault + 1,
            maxSeconds: 2_000,
            happenings: storeOutage
              ? [
                  {
                    at: storeOutage.from,
                    what: 'Redis (breaker store) STOPPED',
                    run: () => redisWorld.stopRedis(),
                  },
                  {
                    at: storeOutage.to,
                    what: 'Redis (breaker store) RESTARTED, empty',
                    run: () => redisWorld.restartRedisEmpty(),
                  },
                ]
              : [],
          };
          const report = await runScenario(world, plan);
          const problems = await invariantViolations(world, report, run, {
            storeLostTrips: storeOutage !== undefined,
          });
          trips += report.orchestrationIds.length;
          storeOutages += report.timeline.filter((t) =>
            t.what.startsWith('Redis (breaker store) STOPPED'),
          ).length;
          expect(problems, JSON.stringify(arbitrary)).toEqual([]);
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
      // The schedules must actually exercise the breaker and the store outages, not only quiet runs.
      expect(trips).toBeGreaterThan(0);
      expect(storeOutages).toBeGreaterThan(0);
    },
    runs * 120_000,
  );
});
