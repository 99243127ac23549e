import fc from 'fast-check';

import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import type { ScenarioTick } from '../../../sim/world/scenario';
import type { RedisWorld } from '../worlds/redisWorld';

/**
 * Faults inside the retention margin, where the retention guard saves what waits and the drain brings
 * it back after the approval: a host restart after the guard's first save, the process crashing
 * between a save's blob writes and its checkpoint move, storage down for part of the margin, the
 * downstream down while the approved drain runs, and Redis restarting empty after the drain. Each is
 * timed by what the guard and the drain really do (their first save, their first removal, the
 * approval), not by a guessed second, so a drawn fault lands in the margin.
 */
export interface DrawnRetentionFaults {
  /** An unrelated settings edit (every instance restarts) this many seconds after the first save. */
  readonly restartAfterSave?: number;
  /** The first save writes its blobs, then the process crashes before the checkpoint move. */
  readonly crashMidSave: boolean;
  /** Storage refuses the saved events from the guard's first save attempt for this many seconds. */
  readonly storageDownSeconds?: number;
  /** The downstream goes down with the first approval for this many seconds (the drain fails). */
  readonly drainFailsSeconds?: number;
  /** Redis stops this many seconds after the drain's first removal and restarts empty `down` later. */
  readonly redisEmptyAfterDrain?: { readonly after: number; readonly down: number };
  /** For a schedule that approves in time: it approves after the retention instead (so the guard acts). */
  readonly late: { readonly afterRetention: number; readonly outage: { from: number; to: number } };
}

/** The fault kinds, as the summary line names them. */
export const RETENTION_FAULT_KINDS = [
  'restart-in-margin',
  'crash-mid-save',
  'storage-down-in-margin',
  'drain-failed',
  'redis-empty-after-drain',
] as const;
export type RetentionFaultKind = (typeof RETENTION_FAULT_KINDS)[number];
export type RetentionFaultCounts = Record<RetentionFaultKind, { drawn: number; hit: number }>;

export const noRetentionFaultCounts = (): RetentionFaultCounts =>
  Object.fromEntries(RETENTION_FAULT_KINDS.map((k) => [k, { drawn: 0, hit: 0 }])) as RetentionFaultCounts;

/**
 * Half of the schedules draw faults in the margin (each kind about one in three of those), the others
 * none. Drawn after every other field, so the fields of a seed's schedules stay what they were. The
 * drain failure is drawn only with `drainFaults` (PROPERTY_DRAIN_FAULT, default on).
 */
export const retentionFaultsArbitrary = (sendSeconds: number, drainFaults: boolean) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          restartAfterSave: fc.option(fc.integer({ min: 0, max: 150 }), { nil: undefined, freq: 2 }),
          crashMidSave: fc.boolean(),
          storageDownSeconds: fc.option(fc.integer({ min: 10, max: 100 }), { nil: undefined, freq: 2 }),
          drainFailsSeconds: drainFaults
            ? fc.option(fc.integer({ min: 20, max: 120 }), { nil: undefined, freq: 2 })
            : fc.constant(undefined),
          redisEmptyAfterDrain: fc.option(
            fc.record({ after: fc.integer({ min: 0, max: 60 }), down: fc.integer({ min: 1, max: 20 }) }),
            { nil: undefined, freq: 2 },
          ),
          late: fc.record({
            afterRetention: fc.integer({ min: 1, max: 120 }),
            // From early in the send to past its end, so the breaker trips (20 failures in 10 s) and
            // what waits reaches the margin.
            outage: fc
              .tuple(
                fc.integer({ min: 0, max: Math.floor(sendSeconds / 4) }),
                fc.integer({ min: 15, max: 90 }),
              )
              .map(([from, past]) => ({ from, to: sendSeconds + past })),
          }),
        })
        .map((r): DrawnRetentionFaults => {
          const out: DrawnRetentionFaults = { crashMidSave: r.crashMidSave, late: r.late };
          return {
            ...out,
            ...(r.restartAfterSave === undefined ? {} : { restartAfterSave: r.restartAfterSave }),
            ...(r.storageDownSeconds === undefined ? {} : { storageDownSeconds: r.storageDownSeconds }),
            ...(r.drainFailsSeconds === undefined ? {} : { drainFailsSeconds: r.drainFailsSeconds }),
            ...(r.redisEmptyAfterDrain === undefined ? {} : { redisEmptyAfterDrain: r.redisEmptyAfterDrain }),
          };
        }),
    },
  );

/** The kinds a schedule drew. */
export function drawnKinds(f: DrawnRetentionFaults | undefined): RetentionFaultKind[] {
  if (f === undefined) return [];
  return [
    ...(f.restartAfterSave === undefined ? [] : (['restart-in-margin'] as const)),
    ...(f.crashMidSave ? (['crash-mid-save'] as const) : []),
    ...(f.storageDownSeconds === undefined ? [] : (['storage-down-in-margin'] as const)),
    ...(f.drainFailsSeconds === undefined ? [] : (['drain-failed'] as const)),
    ...(f.redisEmptyAfterDrain === undefined ? [] : (['redis-empty-after-drain'] as const)),
  ];
}

/** What one run's retention faults did: the kinds that landed, and a log of when. */
export interface RetentionFaultRun {
  readonly hit: Set<RetentionFaultKind>;
  readonly log: string[];
  /** Redis restarted empty during the run (the store forgot its trips). */
  readonly storeLostTrips: () => boolean;
  /** The scenario's hooks: the observer plays the faults due, followLink times the drain failure. */
  readonly hooks: {
    readonly observer: (tick: ScenarioTick) => Promise<void>;
    readonly followLink: (link: string, waitedSeconds: number) => boolean;
  };
  /** Switches every fault off (after the run). */
  readonly end: () => void;
}

/**
 * Arms the drawn faults for one run of `world`. `outages` is the run plan's own (mutable) list: the
 * drain failure adds its window there, so the run keeps the downstream down for it.
 */
export function armRetentionFaults(
  redisWorld: RedisWorld,
  faults: DrawnRetentionFaults | undefined,
  outages: { from: number; to: number }[],
  approveAfter: number,
): RetentionFaultRun {
  const world: BreakwaterWorld = redisWorld.world;
  const hit = new Set<RetentionFaultKind>();
  const log: string[] = [];
  const due: { at: number; what: string; run: () => void | Promise<void> }[] = [];
  let second = 0;
  let storeLost = false;
  let approved = false;
  const saved = world.savedFaults;
  saved.clear();
  const restartHost = (why: string) => {
    world.arm.setSettings({ ...world.arm.settings(), UNRELATED_SETTING: `${why} at ${second}` });
  };
  const followLink = (_link: string, waited: number) => {
    if (waited < approveAfter) return false;
    if (!approved && faults?.drainFailsSeconds !== undefined) {
      outages.push({ from: second, to: second + faults.drainFailsSeconds });
      world.downstreamDown = true;
      log.push(`${second}s downstream down for the approved drain (${faults.drainFailsSeconds} s)`);
    }
    approved = true;
    return true;
  };
  if (faults !== undefined) {
    let firstAttempt = true;
    let firstSave = true;
    if (faults.crashMidSave) saved.crashAfterNextSave = true;
    saved.onSaving = () => {
      if (!firstAttempt) return;
      firstAttempt = false;
      const down = faults.storageDownSeconds;
      if (down === undefined) return;
      saved.storageDown = true;
      hit.add('storage-down-in-margin');
      log.push(`${second}s storage down for the saved events (${down} s), at the guard's first save`);
      due.push({
        at: second + down,
        what: 'storage up',
        run: () => {
          saved.storageDown = false;
        },
      });
    };
    saved.onSaved = (count, crashing) => {
      if (crashing) {
        hit.add('crash-mid-save');
        log.push(`${second}s process crashed after saving ${count} blob(s), before the checkpoint move`);
        due.push({
          at: second,
          what: 'crash restart',
          run: () => {
            saved.crashed = false;
            restartHost('crashed mid-save');
          },
        });
      }
      if (!firstSave) return;
      firstSave = false;
      const after = faults.restartAfterSave;
      if (after === undefined) return;
      due.push({
        at: second + after,
        what: 'host restart in the margin',
        run: () => {
          hit.add('restart-in-margin');
          log.push(`${second}s host restart (settings edit), ${after} s after the first save`);
          restartHost('edited in the retention margin');
        },
      });
    };
    saved.onRead = () => {
      if (approved && world.downstreamDown && faults.drainFailsSeconds !== undefined) hit.add('drain-failed');
    };
    let firstRemoval = true;
    saved.onRemoved = () => {
      if (!firstRemoval || faults.redisEmptyAfterDrain === undefined) return;
      firstRemoval = false;
      const { after, down } = faults.redisEmptyAfterDrain;
      due.push({
        at: second + after,
        what: 'Redis stopped after the drain',
        run: async () => {
          log.push(`${second}s Redis (breaker store) stopped after the drain`);
          await redisWorld.stopRedis();
        },
      });
      due.push({
        at: second + after + down,
        what: 'Redis restarted empty after the drain',
        run: async () => {
          hit.add('redis-empty-after-drain');
          storeLost = true;
          log.push(`${second}s Redis (breaker store) restarted, empty`);
          await redisWorld.restartRedisEmpty();
        },
      });
    };
  }
  return {
    hit,
    log,
    storeLostTrips: () => storeLost,
    hooks: {
      followLink,
      observer: async (tick) => {
        for (const d of due.filter((x) => x.at <= tick.second)) {
          due.splice(due.indexOf(d), 1);
          await d.run();
        }
        second = tick.second + 1;
      },
    },
    end: () => {
      saved.clear();
    },
  };
}
