import fc from 'fast-check';

import { WATCHDOG_GRACE_MS } from '../../../src/composition/orchestrationRuntime';
import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import { START_CONFLICTS, type StartConflict } from '../../../sim/durable/durableBackend';
import type { HostFaults } from '../../../sim/world/scenarioFaults';
import { seededRandom } from '../../../sim/host/hostConfig';

/** Host faults a property schedule draws (the 5.x extension is never drawn: it is known to lose). */
export interface DrawnHostFaults extends Omit<HostFaults, 'crashes'> {
  readonly startConflict: StartConflict;
  /** The trigger's start of the orchestration is slow and the watchdog starts the same trip meanwhile. */
  readonly watchdogRacesTrigger: boolean;
  /** The platform's timing: slow restarts, late activity re-delivery, late (or early) timers. */
  readonly timing?: DrawnTiming;
}

export interface DrawnTiming {
  /** The old instances keep running this long after a settings write. */
  readonly restartDelayMs: number;
  /** A killed activity comes back this long after the kill (the queue's visibility timeout). */
  readonly redeliveryMs: number;
  /** Each timer fires between `from` and `to` ms after its FireAt (negative: before it). */
  readonly timerSkew: { readonly from: number; readonly to: number };
  readonly timersFirst: boolean;
  readonly seed: number;
}

/** What the drawn timing did in one run (for the property's closing line). */
export interface TimingCounts {
  lateTimers: number;
  earlyTimers: number;
}

const at = (sendSeconds: number) => fc.integer({ min: 0, max: sendSeconds + 30 });

/** Instances, partition moves, timeouts, unrelated settings edits, wire shapes and duplicate starts. */
export const hostFaultsArbitrary = (sendSeconds: number): fc.Arbitrary<DrawnHostFaults> =>
  fc.record({
    instances: fc.integer({ min: 1, max: 3 }),
    steals: fc.array(
      fc.record({
        at: at(sendSeconds),
        partition: fc.integer({ min: 0, max: 3 }),
        to: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      }),
      { maxLength: 3 },
    ),
    timeouts: fc.array(fc.record({ at: at(sendSeconds), partition: fc.integer({ min: 0, max: 3 }) }), {
      maxLength: 2,
    }),
    settingsEdits: fc.array(fc.record({ at: at(sendSeconds) }), { maxLength: 2 }),
    wire: fc.record({ longs: fc.boolean() }),
    startConflict: fc.constantFrom(...START_CONFLICTS),
    watchdogRacesTrigger: fc.boolean(),
    hostSeed: fc.integer({ min: 1, max: 1_000_000 }),
    timing: fc.record({
      restartDelayMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8_000 })),
      redeliveryMs: fc.constantFrom(0, 30_000, 300_000),
      timerSkew: fc
        .tuple(fc.integer({ min: -1_000, max: 0 }), fc.integer({ min: 0, max: 60_000 }))
        .map(([from, to]) => ({ from, to })),
      timersFirst: fc.boolean(),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
    }),
  });

/** Puts the drawn timing in force for one run; counts the timers it moved. */
export function arrangeTiming(
  world: BreakwaterWorld,
  timing: DrawnTiming | undefined,
  counts: TimingCounts,
): void {
  if (timing === undefined) {
    world.timing = {};
    return;
  }
  const random = seededRandom(timing.seed);
  world.timing = {
    restartDelayMs: () => timing.restartDelayMs,
    redeliveryMs: () => timing.redeliveryMs,
    timerSkewMs: () => {
      const skew = Math.round(
        timing.timerSkew.from + random() * (timing.timerSkew.to - timing.timerSkew.from),
      );
      if (skew > 0) counts.lateTimers++;
      if (skew < 0) counts.earlyTimers++;
      return skew;
    },
    timersFirst: () => timing.timersFirst,
  };
}

/** The last second at which a drawn host fault acts. */
export const lastHostFault = (f: DrawnHostFaults) =>
  Math.max(
    0,
    ...(f.steals ?? []).map((s) => s.at),
    ...(f.timeouts ?? []).map((t) => t.at),
    ...(f.settingsEdits ?? []).map((e) => e.at),
  );

/** Sets the world up for the drawn duplicate-start fault before a run. */
export function arrangeDuplicateStarts(world: BreakwaterWorld, faults: DrawnHostFaults): void {
  world.durable.startConflict = faults.startConflict;
  world.durable.onStartRequest = faults.watchdogRacesTrigger
    ? async () => {
        world.durable.onStartRequest = undefined;
        world.clock.advance(WATCHDOG_GRACE_MS + 1_000);
        await world.runWatchdog();
      }
    : undefined;
}
