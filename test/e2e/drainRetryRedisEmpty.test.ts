/**
 * The failed drain of test/e2e/drainRetryScenario.test.ts on the Redis store, which then restarts empty
 * (no persistence, or a failover): the store forgets the trip, its phase and its probation. The saved
 * events are still in blobs and the trigger still disabled; the orchestration's drain retry must still
 * write them once the downstream is back and only then enable the trigger, nothing lost, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { scenario } from './worlds/failedDrainScenario';

describe('a failed drain, then Redis restarts empty', () => {
  const t = scenario('redis');
  beforeAll(() => t.setUp(), 180_000);
  afterAll(() => t.close());

  it('keeps the trigger disabled and the saved events while the store is empty and the downstream down', async () => {
    expect(t.s.savedIds.size).toBe(t.s.heldAtTrip);
    await t.restartRedisEmpty();
    for (let i = 0; i < 5 * 6; i++) {
      t.s.w.world.clock.advance(9_000);
      await t.second();
      expect(t.s.w.world.isDisabled()).toBe(true);
    }
    expect((await t.saved().count()).total).toBe(t.s.heldAtTrip);
  });

  it('once the downstream is back, drains the saved events, then enables the trigger: nothing lost, in order', async () => {
    t.send(8, 'after-restart');
    t.s.w.world.downstreamDown = false;
    // The store forgot the trips: the breaker opens a new one and asks a person again (the last
    // word before the restart was that the downstream still failed). Its link, not an older one, approves.
    await t.seconds(60, () => false);
    const { tripId } = (await t.status()) as { tripId?: string | null };
    const short = (tripId ?? '').slice(-8);
    const ask = t.s.w.world.smtp.received.find((m) => (m.subject ?? '').includes(`(trip ${short})`));
    const link = /(https?:\/\/\S+\/api\/approve\?token=[A-Za-z0-9._~-]+)/.exec(ask?.text ?? '')?.[1] ?? '';
    expect(link).not.toBe('');
    expect(t.s.w.world.isDisabled()).toBe(true);
    expect((await t.s.w.world.approve(link, 'Second Approver')).postStatus).toBe(200);
    await t.seconds(5 * 60, () => t.s.w.host.isListening && t.s.w.host.drained);
    await t.resumedWithNothingLost();
    expect(await t.status()).toMatchObject({ triggerDisabled: false });
  });
});
