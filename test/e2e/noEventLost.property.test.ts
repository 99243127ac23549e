import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import type { BreakwaterWorld } from './model/breakwaterWorld';
import { invariantViolations } from './model/invariants';
import { RedisWorld } from './model/redisWorld';
import { runScenario, type ScenarioPlan } from './model/scenario';
import { arrangeDuplicateStarts, hostFaultsArbitrary, lastHostFault } from './property/hostFaults';

// Random fault schedules against the whole app: downstream outages, poison events, breaker-store
// (Redis) outages, crashes, approval delays, partition counts and batch sizes, and the host's own
// faults (property/hostFaults.ts): several instances and partition moves, timeouts, settings edits
// restarting the host, Long-shaped metadata, duplicate orchestration starts. After recovery nothing is
// lost, the sink converges per key, every trip has one orchestration and one trip email, and the
// trigger is enabled and the breaker CLOSED. PROPERTY_RUNS and PROPERTY_SEED replay or widen the
// search (`npm run soak` runs 200).
const runs = Number(process.env.PROPERTY_RUNS ?? 8);
const seed = Number(process.env.PROPERTY_SEED ?? 20261129);
// CI output shows what was explored, and how to replay it.
console.log(`property: ${runs} schedules, seed ${seed} (PROPERTY_RUNS=${runs} PROPERTY_SEED=${seed})`);

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
      host: hostFaultsArbitrary(base.sendSeconds),
    }),
  );

let runNumber = 0;
let trips = 0;
let storeOutages = 0;
const seenHost = { restarts: 0, moves: 0, timeouts: 0, refusedStarts: 0 };

describe('property: nothing is lost under random fault schedules', () => {
  it(
    'holds G1 (zero lost), G2 (convergence, order per invocation), G3 (one orchestration and trip email per trip) and ends enabled and CLOSED',
    async () => {
      await fc.assert(
        fc.asyncProperty(planArbitrary, async (arbitrary) => {
          const run = `p${++runNumber}`;
          const { base, outages, crashes, storeOutage, host } = arbitrary;
          const lastFault = Math.max(
            0,
            ...outages.map((o) => o.to),
            ...crashes.map((c) => c.at),
            storeOutage?.to ?? 0,
            lastHostFault(host),
          );
          arrangeDuplicateStarts(world, host);
          const plan: ScenarioPlan = {
            ...base,
            ...host,
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
          seenHost.restarts += report.host.restarts.length;
          seenHost.moves += report.host.instances.moves;
          seenHost.timeouts += report.host.invocations.filter((i) => i.outcome === 'timed-out').length;
          seenHost.refusedStarts = world.durable.refusedStarts.length;
          storeOutages += report.timeline.filter((t) =>
            t.what.startsWith('Redis (breaker store) STOPPED'),
          ).length;
          expect(problems, JSON.stringify(arbitrary)).toEqual([]);
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
      console.log(
        `property: ${runNumber} schedules run, seed ${seed}, ${trips} trips, ${storeOutages} store outages`,
      );
      // The schedules must actually exercise the breaker and the store outages, not only quiet runs.
      expect(trips).toBeGreaterThan(0);
      expect(storeOutages).toBeGreaterThan(0);
      expect(seenHost.restarts).toBeGreaterThan(0);
      expect(seenHost.moves).toBeGreaterThan(0);
    },
    runs * 120_000,
  );
});
