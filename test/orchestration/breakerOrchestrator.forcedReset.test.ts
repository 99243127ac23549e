import { beforeAll, describe, expect, it } from 'vitest';

import { TriggerSwitchTransientError } from '../../src/control/errors';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { FN, newEpisode, registerBreaker, SETTINGS, T0, untilAwaitingApproval } from './breakerFixture';

beforeAll(registerBreaker);

describe('breaker orchestration: the store moved on while an ARM write was pending', () => {
  it('a forced reset during a retried disable: the retry writes nothing and the episode ends', async () => {
    const e = await newEpisode();
    e.triggerSwitch.failNext(new TriggerSwitchTransientError('ARM answered 503', 503));
    await e.host.run();
    expect(e.status().phase).toBe('disabling');

    // The operator's break-glass reset: window emptied, CLOSED, trigger enabled.
    await e.store.resetWindow();
    expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 3_000)).toBe(true);
    await e.triggerSwitch.setDisabled(FN, false);

    await e.host.fireNextTimer();
    expect(e.triggerSwitch.disabled.get(FN)).toBe(false);
    expect(e.triggerSwitch.calls.filter((c) => c.disabled && c.ok)).toEqual([]);
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.host.output).toMatchObject({ phase: 'superseded' });
    expect((e.host.output as BreakerStatus).detail).toMatch(/CLOSED/);
    // Nobody is asked to approve a trip that is over.
    expect(e.email.sent).toEqual([]);
  });

  it('a new trip while a re-enable is retried: the old episode leaves the trigger to the new one', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.triggerSwitch.disabled.get(FN)).toBe(true);
    e.triggerSwitch.failNext(new TriggerSwitchTransientError('ARM answered 503', 503));
    await e.host.deliver('Approval', { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect((await e.store.getState()).state).toBe('HALF_OPEN');
    expect(e.status().phase).toBe('resuming');

    // Before the retry, the store is OPEN again for a newer trip, whose orchestration disables.
    const newer = await e.store.openManually('maintenance', T0 + 6_000);
    expect(newer).toBeDefined();
    await e.host.fireNextTimer();

    expect(e.triggerSwitch.calls.filter((c) => !c.disabled && c.ok)).toEqual([]);
    expect(e.triggerSwitch.disabled.get(FN)).toBe(true);
    expect(e.host.output).toMatchObject({ phase: 'superseded' });
    expect((e.host.output as BreakerStatus).detail).toContain(newer!);
    expect(SETTINGS.retry.maxAttempts).toBeGreaterThan(1);
  });
});
