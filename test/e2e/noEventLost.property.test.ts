import { describe, it } from 'vitest';

import { checkNoEventLost, parsePropertyShard } from './property/faultProperty';
import { useServedRedisWorld } from './property/servedWorld';

// Random fault schedules against the whole app: downstream outages, poison events, breaker-store
// (Redis) outages, crashes, approval delays, partition counts and batch sizes, an operator's forced
// reset at any moment and oversized control-character events. After recovery nothing
// is lost, partitions are written in order, every key converges, every trip has exactly one
// orchestration and the trigger is enabled; an outage dead-letters nothing. The host's own faults too:
// several instances and partition moves, timeouts, restarts on settings edits, duplicate starts. And
// approvals after the hub's retention: what waited longer must have been saved, not lost; and trips
// nobody approves before the schedule's end, checked then (held or saved, none expired) and again once
// approved and settled. PROPERTY_RUNS, PROPERTY_SEED and PROPERTY_PATH widen the search or replay one
// schedule (`npm run soak`).
const runs = Number(process.env.PROPERTY_RUNS ?? 8);
const seed = Number(process.env.PROPERTY_SEED ?? 20261129);
// PROPERTY_PATH replays one schedule of a failure report (with its PROPERTY_SEED).
const path = process.env.PROPERTY_PATH;
// PROPERTY_SHARD=i/n runs the i-th of n blocks of each seed's schedules (.ci/run runs two at once).
const shard = parsePropertyShard(process.env.PROPERTY_SHARD);

// The hubs keep events PROPERTY_RETENTION_SECONDS: some schedules approve after that, or never. Those run on a
// hub the app reads (served by the Event Hubs peer), as the retention guard does in Azure.
const worlds = useServedRedisWorld({ partitions: 4, namePrefix: 'property', key: 'property-local-key' });

// CI runs PROPERTY_EXTRA_RUNS more from PROPERTY_EXTRA_SEED (derived from the commit by .ci/run); a
// failure there replays with PROPERTY_SEED=<that seed> PROPERTY_RUNS=1 PROPERTY_PATH=<its path>.
const extraRuns = Number(process.env.PROPERTY_EXTRA_RUNS ?? 0);
const extraSeed = Number(process.env.PROPERTY_EXTRA_SEED ?? 0);

/** Runs the property; on a failure prints the command that replays its shrunk schedule. */
async function withReplayHint(seedUsed: number, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    const at = /path: "([^"]*)"/.exec(String(error))?.[1];
    if (at !== undefined)
      console.log(
        `replay: PROPERTY_SEED=${seedUsed} PROPERTY_RUNS=1 PROPERTY_PATH=${at} npx vitest run test/e2e/noEventLost.property.test.ts`,
      );
    throw error;
  }
}

describe('property: nothing is lost under random fault schedules', () => {
  it(
    'holds G1 (zero lost), G2 (order, convergence), G3 (one orchestration per trip) and ends enabled and CLOSED',
    () =>
      withReplayHint(seed, () =>
        checkNoEventLost(worlds.redisWorld, {
          runs,
          seed,
          runPrefix: 'p',
          served: worlds.served,
          ...(shard === undefined ? {} : { shard }),
          ...(path === undefined ? {} : { path }),
        }),
      ),
    runs * 120_000,
  );
  it.runIf(extraRuns > 0 && path === undefined)(
    'holds the same over more schedules from the commit-derived seed (PROPERTY_EXTRA_SEED)',
    () =>
      withReplayHint(extraSeed, () =>
        checkNoEventLost(worlds.redisWorld, {
          runs: extraRuns,
          seed: extraSeed,
          runPrefix: 'q',
          served: worlds.served,
          ...(shard === undefined ? {} : { shard }),
        }),
      ),
    extraRuns * 120_000,
  );
});
