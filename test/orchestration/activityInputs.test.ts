import { beforeAll, describe, expect, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { BreakerActivity } from '../../src/orchestration/activityNames';
import { parseBreakerStatus } from '../../src/orchestration/breakerStatus';
import { FN, newEpisode, registerBreaker, T0 } from './breakerFixture';

beforeAll(registerBreaker);

/** Invokes an activity as the worker does, with the JSON the extension would pass on. */
const invoke = (name: string, input: unknown) =>
  invokeRpc(name, { trigger: { json: JSON.stringify(input) } });

describe('activity inputs the orchestrator never sends', () => {
  it.each([
    ['no object', 'trip-1', /input must be an object/],
    ['no trip id', { functionName: FN }, /tripId must be a string/],
    [
      'a record flag that is not a boolean',
      { functionName: FN, tripId: 't', record: 'false' },
      /record must be true or false/,
    ],
  ])('enableTrigger with %s fails with a typed error and switches nothing', async (_what, input, message) => {
    const e = await newEpisode();
    await expect(invoke(BreakerActivity.enableTrigger, input)).rejects.toThrow(message);
    expect(e.triggerSwitch.calls).toEqual([]);
  });

  it('record: false enables the trigger without touching the trip record; absent, it records the resume', async () => {
    const e = await newEpisode();
    // Approved: the store is HALF_OPEN (an OPEN store never lets the trigger be enabled).
    expect(await e.store.transition('OPEN', 'HALF_OPEN', e.tripId, T0 + 60_000)).toBe(true);
    const resumedAt = async () => (await e.store.trip(e.tripId))?.resumedAt;
    await invoke(BreakerActivity.enableTrigger, { functionName: FN, tripId: e.tripId, record: false });
    expect(e.triggerSwitch.calls).toEqual([{ functionName: FN, disabled: false, ok: true }]);
    expect(await resumedAt()).toBeUndefined();
    await invoke(BreakerActivity.enableTrigger, { functionName: FN, tripId: e.tripId });
    expect(await resumedAt()).toBeGreaterThan(0);
  });
});

describe('a stored orchestration status', () => {
  it('with a phase this version does not know reads as not ours, as does one without a trip id', () => {
    expect(parseBreakerStatus({ phase: 'awaiting-approval', tripId: 't1' })).toMatchObject({ tripId: 't1' });
    expect(parseBreakerStatus({ phase: 'rebooting', tripId: 't1' })).toBeUndefined();
    expect(parseBreakerStatus({ phase: 'awaiting-approval' })).toBeUndefined();
    expect(parseBreakerStatus('awaiting-approval')).toBeUndefined();
    expect(parseBreakerStatus(null)).toBeUndefined();
  });
});
