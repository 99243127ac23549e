import fc from 'fast-check';

import { START_CONFLICTS, type StartConflict } from '../../../sim/durable/durableBackend';
import { HistoryEventType } from '../../../sim/durable/replay';
import { seededRandom } from '../../../sim/host/hostConfig';
import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import type { HostFaults } from '../../../sim/world/scenarioFaults';
import { WATCHDOG_GRACE_MS } from '../../../src/composition/orchestrationRuntime';

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
  /**
   * How much later than the extension's delivery each timer completes, between `from` and `to` ms
   * (negative: no later; the early side is the delivery's own, sim/durable/timerDelivery.ts).
   */
  readonly timerSkew: { readonly from: number; readonly to: number };
  readonly timersFirst: boolean;
  readonly seed: number;
}

/** How the timers of the runs completed against their FireAt, from the histories (the closing line). */
export interface TimingCounts {
  lateTimers: number;
  earlyTimers: number;
}

/** Counts the TimerFired events of these instances that came before (early) or after (late) their FireAt. */
export function countTimers(
  world: BreakwaterWorld,
  instanceIds: readonly string[],
  counts: TimingCounts,
): void {
  for (const id of new Set(instanceIds))
    for (const event of world.durable.hosts.get(id)?.history ?? []) {
      if (event.EventType !== HistoryEventType.TimerFired) continue;
      const firedAt = Date.parse(event.Timestamp);
      const fireAt = Date.parse(String(event.FireAt));
      if (firedAt < fireAt) counts.earlyTimers++;
      if (firedAt > fireAt) counts.lateTimers++;
    }
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
    // Now and then the edit sets a stray form of the switch (AzureWebJobs_<fn>_Disabled).
    settingsEdits: fc.array(
      fc
        .tuple(
          at(sendSeconds),
          fc.constantFrom(undefined, undefined, undefined, '1' as const, 'true' as const),
        )
        .map(([at, stray]) => (stray === undefined ? { at } : { at, stray })),
      { maxLength: 2 },
    ),
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

/** Puts the drawn timing in force for one run. */
export function arrangeTiming(world: BreakwaterWorld, timing: DrawnTiming | undefined): void {
  if (timing === undefined) {
    world.timing = {};
    return;
  }
  const random = seededRandom(timing.seed);
  world.timing = {
    restartDelayMs: () => timing.restartDelayMs,
    redeliveryMs: () => timing.redeliveryMs,
    timerSkewMs: () =>
      Math.round(timing.timerSkew.from + random() * (timing.timerSkew.to - timing.timerSkew.from)),
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
