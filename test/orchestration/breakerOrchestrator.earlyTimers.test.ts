import { beforeAll, describe, expect, it } from 'vitest';

import { readableTrips } from '../../src/breaker/breakerStore';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import { newEpisode, registerBreaker, SETTINGS, untilAwaitingApproval } from './breakerFixture';

beforeAll(registerBreaker);

// On the Azure Storage backend a durable timer completes up to about a second before its FireAt
// (sim/durable/timerDelivery.ts, measured on the real extension): the orchestrator's time after the
// probation timer can be short of the deadline.
describe('breaker orchestration: timers that complete early', () => {
  it('keeps probation for its whole length when the probation timer completes before its deadline', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status().phase).toBe('probation');
    // The reminder timer the approval cancelled is still pending (as in the extension): probation's is the last.
    const probationTimer = e.host.pendingTimers.at(-1);
    if (!probationTimer) throw new Error('no probation timer');
    const deadline = probationTimer.fireAt;
    expect(deadline - e.host.now).toBe(SETTINGS.probationSeconds * 1000);
    expect(probationTimer.dueAt).toBeLessThan(deadline);

    e.host.advance(probationTimer.dueAt - e.host.now);
    await e.host.run();
    // Still short of the deadline: the breaker must stay HALF_OPEN, not close early.
    expect(e.host.now).toBeLessThan(deadline);
    expect(e.status().phase).toBe('probation');
    expect((await e.store.getState()).state).toBe('HALF_OPEN');

    e.host.advance(deadline + 3_000 - e.host.now);
    await e.host.run();
    expect((e.host.output as BreakerStatus).phase).toBe('closed');
    const trip = readableTrips(await e.store.history(5)).find((t) => t.tripId === e.tripId);
    expect(trip?.closedAt).toBeGreaterThanOrEqual(deadline);
  });
});
