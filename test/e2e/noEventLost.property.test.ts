import { afterAll, beforeAll, describe, inject, it, vi } from 'vitest';

import { checkNoEventLost } from './property/faultProperty';
import { RedisWorld } from './worlds/redisWorld';

// Random fault schedules against the whole app: downstream outages, poison events, breaker-store
// (Redis) outages, crashes, approval delays, partition counts and batch sizes, an operator's forced
// reset at any moment and oversized control-character events. After recovery nothing
// is lost, partitions are written in order, every key converges, every trip has exactly one
// orchestration and the trigger is enabled; an outage dead-letters nothing. The host's own faults too:
// several instances and partition moves, timeouts, restarts on settings edits, duplicate starts. PROPERTY_RUNS, PROPERTY_SEED and PROPERTY_PATH widen the search or replay one schedule
// (`npm run soak`).
const runs = Number(process.env.PROPERTY_RUNS ?? 8);
const seed = Number(process.env.PROPERTY_SEED ?? 20261129);
// PROPERTY_PATH replays one schedule of a failure report (with its PROPERTY_SEED).
const path = process.env.PROPERTY_PATH;

let redisWorld: RedisWorld;
beforeAll(async () => {
  // A restart rebuilds the app's memory as a new process would (the host restarts on settings changes).
  redisWorld = await RedisWorld.create(inject('storageConnectionString'), {
    freshModules: () => vi.resetModules(),
  });
});
afterAll(() => redisWorld.close());

describe('property: nothing is lost under random fault schedules', () => {
  it(
    'holds G1 (zero lost), G2 (order, convergence), G3 (one orchestration per trip) and ends enabled and CLOSED',
    () =>
      checkNoEventLost(redisWorld, { runs, seed, runPrefix: 'p', ...(path === undefined ? {} : { path }) }),
    runs * 120_000,
  );
});
