/**
 * A failed drain, end to end (G2, G7): a trip nobody approves until the retention guard has saved what
 * waits; the operator approves while the downstream is still down, so the drain of the saved events
 * fails. The trigger must stay disabled (no later event may overtake a saved one) and the email must say
 * so. The drain's failures count in the probation window, so the breaker trips again and asks again
 * (decided: the downstream still fails, so a person decides again). Once the downstream is back and that
 * trip is approved, the saved events are written, then the trigger starts: nothing lost, each key in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { scenario } from './worlds/failedDrainScenario';

describe('a failed drain after the approval, on the Table store', () => {
  const t = scenario();
  beforeAll(() => t.setUp(), 180_000);
  afterAll(() => t.s.w.close());

  it('tells the operators the truth: the trigger stays disabled, nobody enables it by hand', () => {
    expect(t.s.savedIds.size).toBe(t.s.heldAtTrip);
    expect(t.s.heldAtTrip).toBeGreaterThan(20);
    const told = t.emails().filter((m) => /could not be written to the downstream/.test(m));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/the trigger stays disabled while the breaker writes them again/i);
    // Enabling by hand would let newer events overtake the saved ones (G2).
    expect(told[0]).toMatch(/Do not enable the trigger yourself/);
    expect(told[0]).not.toMatch(/by hand|watchdog|NOT restarted/);
  });

  it('keeps the trigger disabled while the downstream still fails; the drain failures ask for a new approval', async () => {
    // Twenty more minutes with the downstream down: the drain's failures count in the probation
    // window, so the breaker trips again and asks again; no step lets the trigger on.
    for (let i = 0; i < 20 * 6; i++) {
      t.s.w.world.clock.advance(9_000);
      await t.second();
      expect(t.s.w.world.isDisabled()).toBe(true);
    }
    expect(await t.status()).toMatchObject({
      state: 'OPEN',
      orchestrationStatus: 'Running',
      triggerDisabled: true,
    });
    expect((await t.saved().count()).total).toBe(t.s.heldAtTrip);
    // Asked once per trip: the first trip, then the one its drain's failures opened.
    const asks = t.emails().filter((m) => /stopped: approval needed/.test(m));
    expect(asks).toHaveLength(2);
    const trips = asks.map((m) => /\(trip (\w+)\)/.exec(m)?.[1]);
    expect(new Set(trips).size).toBe(2);
    // The earlier trip's links no longer approve (G5): only the new trip's do.
    expect((await t.s.w.world.approve(t.s.link, 'Late Approver')).postStatus).toBe(409);
  });

  it('once the downstream is back and the new trip approved, writes the saved events, then enables the trigger: nothing lost, in order', async () => {
    t.send(8, 'after-approval');
    t.s.w.world.downstreamDown = false;
    // The newest link: the new trip's last reminder.
    const next = t.s.w.world.approvalLinks().at(-1) ?? '';
    expect((await t.s.w.world.approve(next, 'Second Approver')).postStatus).toBe(200);
    await t.seconds(5 * 60, () => t.s.w.host.isListening && t.s.w.host.drained);
    await t.resumedWithNothingLost();
    expect(await t.status()).toMatchObject({ triggerDisabled: false });
  });
});
