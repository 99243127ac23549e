import fc from 'fast-check';
import { expect } from 'vitest';

import { deployedRetentionMs } from '../../../sim/host/hubRetention';
import { orderingOf, useOrdering } from '../../../sim/world/orderingInWorld';
import { runScenario, type ScenarioPlan, type ScenarioReport } from '../../../sim/world/scenario';
import type { ServedHub } from '../../../sim/world/servedHub';
import type { OrderingMode } from '../../../src/processing/ordering';
import { invariantViolations } from '../invariants/invariants';
import { outageViolations, type ScheduleFacts } from '../invariants/outageInvariants';
import { savedIntactViolations } from '../invariants/savedIntact';
import type { RedisWorld } from '../worlds/redisWorld';
import {
  arrangeDuplicateStarts,
  arrangeTiming,
  countTimers,
  hostFaultsArbitrary,
  lastHostFault,
  type TimingCounts,
} from './hostFaults';
import { applyOperatorFaults, operatorFaultsArbitrary } from './operatorFaults';
import {
  armRetentionFaults,
  drawnKinds,
  noRetentionFaultCounts,
  RETENTION_FAULT_KINDS,
  type RetentionFaultCounts,
  type RetentionFaultKind,
  retentionFaultsArbitrary,
} from './retentionFaults';

/** PROPERTY_DRAIN_FAULT=0 leaves the downstream up during the approved drain (default: drawn). */
const DRAIN_FAULTS = process.env.PROPERTY_DRAIN_FAULT !== '0';

/**
 * The hub's retention in the property's world (simulated seconds): short enough that a schedule can
 * approve after it, long enough that the other schedules' waits (approval within 200 s of the email, re-trips, a breaker store restarting empty)
 * stay inside it.
 */
export const PROPERTY_RETENTION_SECONDS = 600;

/**
 * The retention guard saves once the oldest waiting event is this close to the retention (minutes;
 * RETENTION_SAVE_MARGIN_MINUTES): the watchdog's runs a minute apart give it five tries in the margin, enough for storage down
 * 100 s and a crash mid-save in it (a schedule's faults take at most three).
 */
export const PROPERTY_SAVE_MARGIN_MINUTES = 5;

/**
 * About one schedule in five approves only after the hub's retention: this long after it, with an
 * outage while events are sent (so the breaker trips and events wait). Drawn last, so the other fields
 * of a seed's schedules stay what they were.
 */
const lateApprovalArbitrary = (sendSeconds: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.record({
        afterRetention: fc.integer({ min: 1, max: 120 }),
        outage: fc
          .tuple(fc.integer({ min: 0, max: Math.floor(sendSeconds / 2) }), fc.integer({ min: 15, max: 90 }))
          .map(([from, length]) => ({ from, to: from + length })),
      }),
    },
  );

/**
 * About one schedule in ten nobody approves within the run (one in eight of those not approving late,
 * drawn after `late`): the operator is away until this long past the retention and the last send, with
 * an outage while events are sent, so what waits outlives the hub's retention unless the guard saves it.
 */
const neverApprovedArbitrary = (sendSeconds: number) =>
  fc.oneof(
    { weight: 7, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.record({
        pastRetention: fc.integer({ min: 1, max: 60 }),
        outage: fc
          .tuple(fc.integer({ min: 0, max: Math.floor(sendSeconds / 2) }), fc.integer({ min: 15, max: 90 }))
          .map(([from, length]) => ({ from, to: from + length })),
      }),
    },
  );

/** A fault window that starts while events are still being sent. */
const windowDuring = (sendSeconds: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: sendSeconds }), fc.integer({ min: 3, max: 90 }))
    .map(([from, length]) => ({ from, to: from + length }));

/**
 * Random fault schedules: downstream outages, poison events, breaker-store (Redis) outages, crashes,
 * approval delays, partition counts and batch sizes, an operator's forced reset at any moment and
 * oversized control-character events (./operatorFaults), and the host's own faults
 * (../property/hostFaults.ts): several instances and partition moves, timeouts, settings edits
 * restarting the host, Long-shaped metadata, duplicate orchestration starts.
 */
export const planArbitrary = fc
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
      operator: operatorFaultsArbitrary(base.sendSeconds),
      host: hostFaultsArbitrary(base.sendSeconds),
      limits: limitsArbitrary,
      late: lateApprovalArbitrary(base.sendSeconds),
      never: neverApprovedArbitrary(base.sendSeconds),
      retention: retentionFaultsArbitrary(base.sendSeconds, DRAIN_FAULTS),
    }),
  );

/**
 * Workloads at the Table service's limits (the storage conformance layer enforces them): 16 sensors of
 * one home in a batch pass the 15 comparisons of one `$filter` in key mode; 120 fill a batch of 100
 * with one home (a transaction of 100 operations); sensor ids with a character keys may not hold.
 */
const limitsArbitrary = fc.record({
  sensorsPerHome: fc.constantFrom(undefined, undefined, 16, 120),
  keyChar: fc.constantFrom(undefined, undefined, '/', '#', '?', '\\'),
});

type Drawn = typeof planArbitrary extends fc.Arbitrary<infer T> ? T : never;
/**
 * A schedule as `planArbitrary` draws it (`late` and `never` optional: schedules written out before they
 * existed).
 */
export type DrawnSchedule = Omit<Drawn, 'late' | 'never' | 'retention'> &
  Partial<Pick<Drawn, 'late' | 'never' | 'retention'>>;

/**
 * A schedule that drew faults in the retention margin but approves in time approves after the retention
 * instead (the late approval its faults drew), so the guard saves and the drain runs.
 */
export function withRetentionFaultsLate(drawn: DrawnSchedule): DrawnSchedule {
  const { retention } = drawn;
  if (retention === undefined || drawn.late !== undefined || drawn.never !== undefined) return drawn;
  // A key character the service refuses dead-letters every write before the downstream: no trip.
  return { ...drawn, late: retention.late, limits: { ...drawn.limits, keyChar: undefined } };
}

/** Whether the schedule's operator approves only after the hub's retention (of the world's hubs). */
export const approvesAfterRetention = (arbitrary: DrawnSchedule) => arbitrary.late !== undefined;

/** Whether nobody approves before the schedule's end (a late approval, when drawn too, wins). */
export const neverApproves = (arbitrary: DrawnSchedule) =>
  arbitrary.late === undefined && arbitrary.never !== undefined;

/**
 * The second the never-approving schedule ends (its events sent, the retention and `pastRetention` more
 * gone by): nobody approved before it, then the operator approves and the run settles. Undefined for the
 * other schedules.
 */
export function neverApprovedUntil(arbitrary: DrawnSchedule, retentionMs: number): number | undefined {
  if (!neverApproves(arbitrary) || arbitrary.never === undefined) return undefined;
  return arbitrary.base.sendSeconds + Math.ceil(retentionMs / 1000) + arbitrary.never.pastRetention;
}

/**
 * The schedule with its late approval (if drawn) applied: the approval after the retention, one more
 * outage, and nobody else ends the wait (no forced reset, no breaker store forgetting the trip).
 */
function withLateApproval(arbitrary: DrawnSchedule, retentionMs: number): DrawnSchedule {
  const { late } = arbitrary;
  if (late === undefined) return arbitrary;
  return {
    ...arbitrary,
    base: { ...arbitrary.base, approveAfter: Math.ceil(retentionMs / 1000) + late.afterRetention },
    outages: [...arbitrary.outages, late.outage],
    storeOutage: undefined,
    operator: { ...arbitrary.operator, forcedResetAt: undefined },
  };
}

/**
 * The schedule with its never-approved wait (if drawn) applied: one more outage and, as for a late
 * approval, nobody else ends the wait. The absence itself is the plan's `approveNotBefore`.
 */
function withNeverApproved(arbitrary: DrawnSchedule): DrawnSchedule {
  if (!neverApproves(arbitrary) || arbitrary.never === undefined) return arbitrary;
  return {
    ...arbitrary,
    outages: [...arbitrary.outages, arbitrary.never.outage],
    storeOutage: undefined,
    operator: { ...arbitrary.operator, forcedResetAt: undefined },
  };
}

/** The breaker stayed OPEN, with no approval, longer than the retention until the report was made. */
function waitedPastRetentionUnapproved(soFar: ScenarioReport): boolean {
  const breaker = soFar.timeline.filter((t) => t.what.startsWith('breaker '));
  const opened = breaker.find((t) => t.what === 'breaker OPEN')?.second;
  return (
    opened !== undefined &&
    breaker.at(-1)?.what === 'breaker OPEN' &&
    soFar.approvals.length === 0 &&
    (soFar.seconds - opened) * 1000 > soFar.retentionMs
  );
}

/** The run approved (HTTP 200) a trip that had been open longer than the retention. */
export function approvedAfterRetention(report: ScenarioReport): boolean {
  const opened = report.timeline.find((t) => t.what === 'breaker OPEN')?.second;
  return (
    opened !== undefined &&
    report.approvals.some((a) => a.postStatus === 200 && (a.second - opened) * 1000 > report.retentionMs)
  );
}

/**
 * Runs one schedule as run `run` and returns what the invariants found (nothing, when it holds). A
 * schedule that approves after the retention, or never within the run, runs on `served` (when given, a hub
 * the app reads, as in Azure: the retention guard reads what waits), replaced by a fresh one of the
 * schedule's partitions. A never-approving one is also checked at its end, before anyone approves
 * (`midRun`: what waits is held or saved, none expired unprocessed), then approved and checked settled;
 * `neverApproved` says its trip really waited past the retention.
 */
export async function runSchedule(
  redisWorld: RedisWorld,
  drawn: DrawnSchedule,
  run: string,
  timingCounts: TimingCounts = { lateTimers: 0, earlyTimers: 0 },
  served?: ServedHub,
): Promise<{
  readonly report: ScenarioReport;
  readonly problems: string[];
  readonly neverApproved: boolean;
  readonly retentionFaults: ReadonlySet<RetentionFaultKind>;
}> {
  const { world } = redisWorld;
  // Faults in the retention margin need a hub the guard reads (a served one): without it the margin is
  // the deployed retention's, beyond any run, and the late approval they bring would never come.
  drawn = served ? withRetentionFaultsLate(drawn) : { ...drawn, retention: undefined };
  const hub = served && (approvesAfterRetention(drawn) || neverApproves(drawn)) ? served : undefined;
  await hub?.replaceHub(drawn.base.partitions);
  const until = neverApprovedUntil(drawn, world.retentionMs);
  const arbitrary = withNeverApproved(withLateApproval(drawn, world.retentionMs));
  const { base, crashes, storeOutage, host } = arbitrary;
  // Mutable: the drain failure adds its window when the approval comes.
  const outages = [...arbitrary.outages];
  const inMargin = armRetentionFaults(redisWorld, drawn.retention, outages, base.approveAfter);
  const lastFault = Math.max(
    0,
    ...outages.map((o) => o.to),
    ...crashes.map((c) => c.at),
    storeOutage?.to ?? 0,
    lastHostFault(host),
  );
  arrangeDuplicateStarts(world, host);
  arrangeTiming(world, host.timing);
  const plan: ScenarioPlan = {
    ...base,
    ...host,
    ...(arbitrary.limits.sensorsPerHome === undefined
      ? {}
      : { sensorsPerHome: arbitrary.limits.sensorsPerHome }),
    ...(arbitrary.limits.keyChar === undefined ? {} : { keyChar: arbitrary.limits.keyChar }),
    outages,
    crashes,
    run,
    // The retention guard reads only the served hub: a schedule on a model hub the app cannot read keeps
    // the deployed retention, so expiry is drawn only where the guard can act (as in Azure, where it reads
    // every hub the app consumes).
    ...(hub === undefined ? { retentionSeconds: deployedRetentionMs() / 1000 } : {}),
    minSeconds: lastFault + 1,
    ...(until === undefined ? {} : { approveNotBefore: until }),
    // 3,000 s: a drain that fails after a late approval can trip the breaker again (its failures count in
    // the window), and the new trip waits for its own late approval, up to retention + 120 s after its
    // email (seed 20261129 path 52, seed 8281901 path 14: approved at 1,685 and 1,918 s, not settled in 2,000).
    maxSeconds: 3_000,
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
  const problems: string[] = [];
  let neverApproved = false;
  const midRun =
    until === undefined
      ? {}
      : {
          midRun: {
            at: until,
            check: async (soFar: ScenarioReport) => {
              neverApproved = waitedPastRetentionUnapproved(soFar);
              const found = [
                ...(await invariantViolations(world, soFar, run, {
                  storeLostTrips: storeOutage !== undefined || inMargin.storeLostTrips(),
                  midRun: true,
                })),
                ...(await savedIntactViolations(world, soFar)),
              ];
              problems.push(...found.map((p) => `at ${until} s, nobody approved yet: ${p}`));
            },
          },
        };
  const report = await runScenario(world, applyOperatorFaults(world, plan, arbitrary.operator), {
    ...(hub ? { hub } : {}),
    ...midRun,
    ...inMargin.hooks,
  }).finally(() => {
    inMargin.end();
  });
  countTimers(world, report.orchestrationIds, timingCounts);
  problems.push(
    ...(await invariantViolations(world, report, run, {
      storeLostTrips: storeOutage !== undefined || inMargin.storeLostTrips(),
    })),
  );
  // These schedules' only downstream faults are outages and partitions never move (a fault kind
  // about one event, or steals, would set these facts for its schedules): an outage dead-letters
  // nothing and each partition's first writes are in sequence order.
  const facts: ScheduleFacts = {
    sinkFaultsAreOutagesOnly: true,
    partitionsMoved: report.host.instances.moves > 0,
  };
  problems.push(...outageViolations(world, report, run, facts));
  if (problems.length > 0 && inMargin.log.length > 0)
    problems.push(`faults in the retention margin:\n  ${inMargin.log.join('\n  ')}`);
  return { report, problems, neverApproved, retentionFaults: inMargin.hit };
}

/**
 * Runs `runs` random schedules against the whole app in `redisWorld` and checks after recovery: zero
 * lost, partitions written in order, convergence per key, one orchestration per trip, trigger enabled,
 * breaker CLOSED; a never-approved schedule also at its end, before the approval. Also checks that the
 * schedules tripped the breaker and stopped the store at least once.
 */
export async function checkNoEventLost(
  redisWorld: RedisWorld,
  options: {
    readonly runs: number;
    readonly seed: number;
    readonly runPrefix: string;
    /** fast-check's replay path of one failing schedule (printed with a failure). */
    readonly path?: string;
    /** The hub the app reads (the world's settings name it): schedules approving after the retention, or never, run on it. */
    readonly served?: ServedHub;
    /** Runs only this block of the `runs` schedules (CI runs the blocks in parallel processes). */
    readonly shard?: PropertyShard;
  },
): Promise<void> {
  // A schedule's number is its index in the seed's sequence (1-based), whichever shard or replay runs it:
  // its name and its ordering follow from it, so a replayed path runs the schedule exactly as it ran.
  let drawn = options.path === undefined ? 0 : Number(options.path.split(':')[0]);
  let runNumber = 0;
  let trips = 0;
  let storeOutages = 0;
  let forcedResets = 0;
  let lateApprovals = 0;
  let neverApproved = 0;
  const seenHost = { restarts: 0, moves: 0, delayedRestarts: 0, backwards: 0, killedActivities: 0 };
  const timingCounts: TimingCounts = { lateTimers: 0, earlyTimers: 0 };
  const limits = { wideHomes: 0, fullHomes: 0, keyChars: 0 };
  let strayForms = 0;
  const marginFaults: RetentionFaultCounts = noRetentionFaultCounts();
  const orderings = new Set<OrderingMode>();
  const switching = { failed: false }; // a world without fresh modules cannot restart: one ordering
  await fc.assert(
    fc.asyncProperty(planArbitrary, async (arbitrary) => {
      const index = ++drawn;
      // Another shard's schedule (endOnFailure: no shrinking calls follow a failure).
      if (options.path === undefined && !shardRuns(options.runs, options.shard, index)) return;
      runNumber++;
      const run = `${options.runPrefix}${index}`;
      // Both orderings, schedule by schedule: ORDERING=key (the default) on odd runs, partition on even.
      if (!(await useOrdering(redisWorld.world, index % 2 === 1 ? 'key' : 'partition')))
        switching.failed = true;
      orderings.add(orderingOf(redisWorld.world));
      const redeliveriesBefore = redisWorld.world.durable.redeliveries.length;
      const outcome = await runSchedule(redisWorld, arbitrary, run, timingCounts, options.served);
      const { report, problems } = outcome;
      // A never-approved trip is approved at the schedule's end, after the retention too: counted once.
      for (const kind of drawnKinds(arbitrary.retention)) marginFaults[kind].drawn++;
      for (const kind of outcome.retentionFaults) marginFaults[kind].hit++;
      if (outcome.neverApproved) neverApproved++;
      else if (approvedAfterRetention(report)) lateApprovals++;
      if (arbitrary.limits.sensorsPerHome === 16) limits.wideHomes++;
      if (arbitrary.limits.sensorsPerHome === 120) limits.fullHomes++;
      if (arbitrary.limits.keyChar !== undefined) limits.keyChars++;
      strayForms += (arbitrary.host.settingsEdits ?? []).filter((e) => e.stray !== undefined).length;
      seenHost.delayedRestarts += report.host.restartDelays.filter((d) => d > 0).length;
      seenHost.backwards += report.host.backwardsCheckpoints.length;
      seenHost.killedActivities += redisWorld.world.durable.redeliveries.length - redeliveriesBefore;
      trips += report.orchestrationIds.length;
      seenHost.restarts += report.host.restarts.length;
      seenHost.moves += report.host.instances.moves;
      forcedResets += report.timeline.filter((t) => t.what === 'operator FORCED reset').length;
      storeOutages += report.timeline.filter((t) =>
        t.what.startsWith('Redis (breaker store) STOPPED'),
      ).length;
      expect(problems, JSON.stringify(arbitrary)).toEqual([]);
    }),
    {
      numRuns: options.runs,
      seed: options.seed,
      endOnFailure: true,
      ...(options.path === undefined ? {} : { path: options.path }),
    },
  );
  const block = shardBlock(options.runs, options.shard);
  console.log(
    `property (${options.runPrefix}): ${runNumber} schedules run (${block.from + 1} to ${block.to} of ${options.runs}), seed ${options.seed}, ${trips} trips, ` +
      `${storeOutages} store outages, ${forcedResets} forced resets, ${seenHost.restarts} host restarts, ` +
      `${seenHost.moves} partition moves, ${strayForms} stray forms of the switch, ordering ${[...orderings].join(' and ')}; ` +
      `${seenHost.delayedRestarts} delayed restarts, ${seenHost.killedActivities} activities killed and re-delivered, ` +
      `${seenHost.backwards} backwards checkpoints, ${timingCounts.lateTimers} late and ${timingCounts.earlyTimers} early timers; ` +
      `limits: ${limits.wideHomes} schedules with 16 sensors per home, ${limits.fullHomes} with 120, ${limits.keyChars} with a key character the service refuses; ` +
      `${lateApprovals} with approval after the retention (${redisWorld.world.retentionMs / 1000} s), ` +
      `${neverApproved} never approved; faults (landed of drawn): ` +
      RETENTION_FAULT_KINDS.map((k) => `${k} ${marginFaults[k].hit} of ${marginFaults[k].drawn}`).join(', ') +
      (DRAIN_FAULTS ? '' : ' (drain failure off: PROPERTY_DRAIN_FAULT=0)'),
  );
  // The schedules must actually exercise the breaker and the store outages, not only quiet runs.
  expect(trips).toBeGreaterThan(0);
  expect(storeOutages).toBeGreaterThan(0);
  expect(forcedResets).toBeGreaterThan(0);
  expect(seenHost.restarts).toBeGreaterThan(0);
  expect(seenHost.moves).toBeGreaterThan(0);
  // About one schedule in five approves after the retention, about one in ten nobody approves before its
  // end: a long enough run must have one of each. "Long enough" keeps a miss by chance below 1 in 10,000
  // (0.8^50, 0.9^100): a shard of the commit's 100 extra schedules (50) once had no never-approved one
  // (0.9^50 = 0.5 %). The fixed seed's shards run 100 each, so both floors are checked on every run.
  if (runNumber >= 50) expect(lateApprovals).toBeGreaterThan(0);
  if (runNumber >= 100) expect(neverApproved).toBeGreaterThan(0);
  if (runNumber > 1 && !switching.failed) expect([...orderings].sort()).toEqual(['key', 'partition']);
}

/** One of `count` contiguous blocks of a seed's schedules, numbered from 1 (`PROPERTY_SHARD=2/2`). */
export interface PropertyShard {
  readonly index: number;
  readonly count: number;
}

/** Reads `i/n` (1 ≤ i ≤ n ≤ 16); undefined when unset. Throws on anything else. */
export function parsePropertyShard(text: string | undefined): PropertyShard | undefined {
  if (text === undefined || text === '') return undefined;
  const match = /^([0-9]{1,2})\/([0-9]{1,2})$/.exec(text);
  const [index, count] = [Number(match?.[1]), Number(match?.[2])];
  if (match === null || index < 1 || count > 16 || index > count)
    throw new Error(
      `PROPERTY_SHARD must be i/n with 1 <= i <= n <= 16 (e.g. 1/2), not ${JSON.stringify(text.slice(0, 20))}`,
    );
  return { index, count };
}

/** The schedules (1-based, `from` exclusive, `to` inclusive) a shard runs of `runs`: all without one. */
export function shardBlock(runs: number, shard: PropertyShard | undefined): { from: number; to: number } {
  if (shard === undefined) return { from: 0, to: runs };
  const size = Math.ceil(runs / shard.count);
  return { from: Math.min(runs, (shard.index - 1) * size), to: Math.min(runs, shard.index * size) };
}

/** Whether the shard runs schedule `number` (1-based) of `runs`. */
export function shardRuns(runs: number, shard: PropertyShard | undefined, number: number): boolean {
  const { from, to } = shardBlock(runs, shard);
  return number > from && number <= to;
}
