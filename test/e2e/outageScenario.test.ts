import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { BreakwaterWorld, DISABLED_SETTING } from '../../sim/world/breakwaterWorld';
import { useOrdering } from '../../sim/world/orderingInWorld';
import { runScenario, type ScenarioPlan, type ScenarioReport } from '../../sim/world/scenario';
import { invariantViolations } from './invariants/invariants';

let world: BreakwaterWorld;
beforeAll(async () => {
  world = await BreakwaterWorld.create({
    storageConnectionString: inject('storageConnectionString'),
    // Each host restart is a new process: the app's modules, clients and caches are rebuilt.
    freshModules: () => vi.resetModules(),
  });
});
afterAll(() => world.close());

// The same outage in both orderings: ORDERING=key (the default) and partition.
describe.each(['key', 'partition'] as const)(
  'a downstream outage long enough to trip the breaker (ORDERING=%s)',
  (ordering) => {
    const plan: ScenarioPlan = {
      run: `outage-${ordering}`,
      partitions: 4,
      events: 400,
      sendSeconds: 40,
      homes: 37,
      poisonEvery: 0,
      outages: [{ from: 5, to: 50 }],
      approveAfter: 60,
      crashes: [],
      maxSeconds: 900,
    };
    let report: ScenarioReport;

    beforeAll(async () => {
      expect(await useOrdering(world, ordering)).toBe(true);
      report = await runScenario(world, plan);
    }, 240_000);

    it('settles: trigger enabled, breaker CLOSED, every event behind the checkpoint', () => {
      expect(report.settled, report.timeline.map((t) => `${t.second}s ${t.what}`).join('\n')).toBe(true);
      expect(world.arm.settings()).toMatchObject({ [DISABLED_SETTING]: 'false', UNRELATED_SETTING: 'kept' });
    });

    it('loses nothing and writes each partition in order', async () => {
      expect(await invariantViolations(world, report, plan.run)).toEqual([]);
    });

    it('trips once: one orchestration, the trigger disabled, one approval email, approval by link', () => {
      expect(report.orchestrationIds).toHaveLength(1);
      const whats = report.timeline.map((t) => t.what);
      expect(whats).toContain('trigger DISABLED (listener stopped)');
      expect(whats.filter((w) => w === 'email with approval link received')).toHaveLength(1);
      expect(report.approvals.map((a) => a.postStatus)).toEqual([200]);
      // The orchestration disables, then emails; the disable restarts the host, so which of the two the
      // timeline shows first depends on that restart. Both come after OPEN and before the approval.
      const emailAt = whats.indexOf('email with approval link received');
      expect(emailAt).toBeGreaterThan(whats.indexOf('breaker OPEN'));
      expect(emailAt).toBeLessThan(whats.indexOf('approval link followed (HTTP 200)'));
      const order = [
        'breaker OPEN',
        'trigger DISABLED (listener stopped)',
        'approval link followed (HTTP 200)',
        'breaker HALF_OPEN',
        'trigger ENABLED (listener resumes)',
        'breaker CLOSED',
      ];
      const positions = order.map((w) => (w === 'breaker CLOSED' ? whats.lastIndexOf(w) : whats.indexOf(w)));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    });

    it('dead-letters nothing: every batch the outage hit was held, before and after the trip', () => {
      expect(report.deadLetters).toEqual([]);
      expect(report.host.invocations.filter((i) => i.outcome === 'threw').length).toBeGreaterThan(0);
    });

    it('held the stream instead of dead-lettering the outage once OPEN', () => {
      const openedAt = report.timeline.find((t) => t.what === 'breaker OPEN')?.second ?? 0;
      const lettersAfterOpen = report.deadLetters.filter(
        (d) => Date.parse(d.deadLetteredAt) > Date.UTC(2026, 0, 1) + (openedAt + 2) * 1000,
      );
      expect(lettersAfterOpen).toEqual([]);
    });
  },
);

describe('approving while the downstream is still down', () => {
  beforeAll(async () => {
    expect(await useOrdering(world, 'key')).toBe(true);
  });

  const plan: ScenarioPlan = {
    run: 'retrip',
    partitions: 2,
    events: 200,
    sendSeconds: 20,
    homes: 11,
    poisonEvery: 0,
    outages: [{ from: 2, to: 70 }],
    approveAfter: 15,
    crashes: [],
    maxSeconds: 900,
  };
  let report: ScenarioReport;

  beforeAll(async () => {
    report = await runScenario(world, plan);
  }, 240_000);

  it('re-trips during probation: a new trip, a new orchestration, a second approval, then recovers', async () => {
    expect(report.settled, report.timeline.map((t) => `${t.second}s ${t.what}`).join('\n')).toBe(true);
    expect(new Set(report.orchestrationIds).size).toBeGreaterThanOrEqual(2);
    expect(report.approvals.length).toBe(report.orchestrationIds.length);
    expect(report.timeline.map((t) => t.what)).toContain('breaker HALF_OPEN');
    expect(await invariantViolations(world, report, plan.run)).toEqual([]);
  });
});
