import { beforeAll, describe, expect, it } from 'vitest';

import { TriggerSwitchTransientError } from '../../src/control/errors';
import { BreakerActivity } from '../../src/orchestration/activityNames';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import { newEpisode, registerBreaker, SETTINGS, T0 } from './breakerFixture';

beforeAll(registerBreaker);

describe('breaker orchestration: started late or again', () => {
  it('keeps an approval raised before the wait began (e.g. while disabling is retried)', async () => {
    const e = await newEpisode();
    e.triggerSwitch.failNext(new TriggerSwitchTransientError('ARM answered 503', 503));
    await e.host.run();
    expect(e.status().phase).toBe('disabling');
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'early@example.test' });
    expect(e.status().phase).toBe('disabling');

    await e.host.fireNextTimer();
    // The trip notice still goes out first; the buffered approval is then taken at once.
    expect(e.status()).toMatchObject({
      phase: 'probation',
      approvedBy: 'early@example.test',
      remindersSent: 0,
    });
    expect(e.subjects()).toEqual([
      expect.stringMatching(/stopped: approval needed/),
      expect.stringMatching(/resumed, on probation/),
    ]);
  });

  it('restarted after the approval (store HALF_OPEN): neither disables nor waits again, and closes', async () => {
    const e = await newEpisode();
    expect(await e.store.transition('OPEN', 'HALF_OPEN', e.tripId, T0 + 500)).toBe(true);
    await e.host.run();
    expect(e.activities(BreakerActivity.disableTrigger)).toHaveLength(0);
    expect(e.triggerSwitch.calls).toEqual([
      { functionName: 'ProcessSensorEvents', disabled: false, ok: true },
    ]);
    expect(e.status().phase).toBe('probation');
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect((e.host.output as BreakerStatus).phase).toBe('closed');
    expect((await e.store.getState()).state).toBe('CLOSED');
  });

  it('started for a trip the store no longer holds (manual reset): ends at once as superseded', async () => {
    const e = await newEpisode();
    expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 500)).toBe(true);
    await e.host.run();
    expect(e.host.runtimeStatus).toBe('Completed');
    expect(e.host.output).toMatchObject({ phase: 'superseded' });
    expect((e.host.output as BreakerStatus).detail).toContain('CLOSED');
    expect(e.triggerSwitch.calls).toEqual([]);
    expect(e.email.sent).toEqual([]);
  });

  it('ends as superseded when the store was reset while it waited for approval', async () => {
    const e = await newEpisode();
    await e.host.run();
    expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 5_000)).toBe(true);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.host.output).toMatchObject({ phase: 'superseded' });
    expect((e.host.output as BreakerStatus).detail).toContain('OPEN → HALF_OPEN');
    expect(e.triggerSwitch.calls.filter((c) => !c.disabled)).toEqual([]);
  });
});
