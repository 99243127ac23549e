import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { START_CONFLICTS } from '../../sim/durable/durableBackend';
import { BreakwaterWorld } from '../../sim/world/breakwaterWorld';
import { runScenario, type ScenarioPlan, type ScenarioReport } from '../../sim/world/scenario';
import { WATCHDOG_GRACE_MS } from '../../src/composition/orchestrationRuntime';
import { invariantViolations } from './invariants/invariants';
import { emailsPerTrip } from './invariants/tripEmails';

// The trigger and the watchdog start the same trip's orchestration at once. The trigger's start is
// slow (storage latency): while it is in flight the watchdog's grace runs out, it finds no instance
// and starts one too. `refuse` is the extension's default check; `race` is Azure Storage's read-then-
// write, where both starts succeed.
describe.each(START_CONFLICTS)(
  'the trigger and the watchdog start one trip at once (%s)',
  (startConflict) => {
    let world: BreakwaterWorld;
    let report: ScenarioReport;
    const plan: ScenarioPlan = {
      run: `dup-${startConflict}`,
      partitions: 2,
      events: 120,
      sendSeconds: 10,
      homes: 7,
      poisonEvery: 0,
      outages: [{ from: 2, to: 30 }],
      approveAfter: 40,
      crashes: [],
      maxSeconds: 900,
    };

    beforeAll(async () => {
      world = await BreakwaterWorld.create({
        storageConnectionString: inject('storageConnectionString'),
        startConflict,
        freshModules: () => vi.resetModules(),
      });
      world.durable.onStartRequest = async () => {
        world.durable.onStartRequest = undefined; // only the trigger's start is slow
        world.clock.advance(WATCHDOG_GRACE_MS + 1_000);
        await world.runWatchdog();
      };
      report = await runScenario(world, plan);
    }, 240_000);
    afterAll(() => world.close());

    it('ends with one orchestration, one trip email, nothing lost', async () => {
      expect(world.watchdogFailures).toEqual([]);
      expect(new Set(report.orchestrationIds).size).toBe(1);
      expect([...emailsPerTrip(world, 'tripped', report.mailsBefore).values()]).toEqual([1]);
      expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    });

    it(
      startConflict === 'refuse'
        ? 'refuses the second start: the trigger re-reads the status and leaves the live instance alone'
        : 'lets both starts succeed; the later write replaces the earlier before it ran',
      () => {
        const [id] = report.orchestrationIds;
        expect(world.durable.refusedStarts.map((r) => r.instanceId)).toEqual(
          startConflict === 'refuse' ? [id] : [],
        );
        expect(report.orchestrationIds).toEqual(startConflict === 'refuse' ? [id] : [id, id]);
      },
    );
  },
);
