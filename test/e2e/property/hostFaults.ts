import fc from 'fast-check';

import { WATCHDOG_GRACE_MS } from '../../../src/composition/orchestrationRuntime';
import type { BreakwaterWorld } from '../../../sim/world/breakwaterWorld';
import { START_CONFLICTS, type StartConflict } from '../../../sim/durable/durableBackend';
import type { HostFaults } from '../../../sim/world/scenarioFaults';

/** Host faults a property schedule draws (the 5.x extension is never drawn: it is known to lose). */
export interface DrawnHostFaults extends Omit<HostFaults, 'crashes'> {
  readonly startConflict: StartConflict;
  /** The trigger's start of the orchestration is slow and the watchdog starts the same trip meanwhile. */
  readonly watchdogRacesTrigger: boolean;
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
  });

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
