/**
 * Switch outcomes written by the version before the one outcome type (`{ ok, soft }` and
 * `{ ok: false, permanent, code, message }`): an orchestration in flight at a deployment reads them
 * from its history, its notices carry them as recorded, and its custom status holds them.
 */
import * as df from 'durable-functions';
import { beforeAll, describe, expect, it } from 'vitest';

import { fakeCore, invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { readNotice } from '../../src/notify/breakerNotice';
import { makeBreakerWebhookNotices } from '../../src/notify/webhook/breakerWebhookNotices';
import { BreakerActivity, sendActivityName } from '../../src/orchestration/activityNames';
import { parseBreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import { FN, newEpisode, registerBreaker, T0, untilAwaitingApproval } from './breakerFixture';

const EARLIER_SWITCHED = { ok: true, soft: false } as const;
const EARLIER_REFUSED = {
  ok: false,
  permanent: true,
  code: 'TRIGGER_SWITCH_PERMISSION',
  message: 'missing role Website Contributor on the app',
} as const;

/** What the switch activities answer, as the earlier version recorded it in the history. */
let earlier: { disable: unknown; enable: unknown } = { disable: EARLIER_SWITCHED, enable: EARLIER_SWITCHED };

beforeAll(() => {
  registerBreaker();
  // The switch activities answer as the earlier version did; everything else is this version's.
  for (const name of [BreakerActivity.disableTrigger, BreakerActivity.enableTrigger] as const) {
    fakeCore.registry.delete(name);
    df.app.activity(name, {
      handler: () => (name === BreakerActivity.disableTrigger ? earlier.disable : earlier.enable),
    });
  }
});

const inputOf = (runs: readonly { readonly input: unknown }[], at: number) =>
  runs[at]?.input as Record<string, unknown>;

describe('switch outcomes in the earlier {ok} shape', () => {
  it('an activity result from the history is read for the decisions and passed on to the notices as recorded', async () => {
    earlier = { disable: EARLIER_SWITCHED, enable: EARLIER_SWITCHED };
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.status().disable).toEqual({ kind: 'switched', disabled: true });
    // The notice input is what the earlier version scheduled, so an old history replays unchanged.
    expect(inputOf(e.activities(sendActivityName('email')), 0).disable).toEqual(EARLIER_SWITCHED);
    expect(e.email.sent[0]!.text).toMatch(/disabled through Azure Resource Manager/);

    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({ phase: 'probation', enable: { kind: 'switched', disabled: false } });
    expect(inputOf(e.activities(sendActivityName('email')), 1)).toMatchObject({
      kind: 'resumed',
      enable: EARLIER_SWITCHED,
    });
    expect(e.email.sent[1]!.text).toMatch(/re-enabled through Azure Resource Manager/);
  });

  it('a permanent failure reads as one: the emails say what to fix, probation runs, the enable-failed notice goes out', async () => {
    earlier = { disable: EARLIER_REFUSED, enable: { ...EARLIER_REFUSED, message: 'role removed' } };
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.status().disable).toEqual({
      kind: 'failed',
      disabled: true,
      code: 'TRIGGER_SWITCH_PERMISSION',
      retryable: false,
      message: 'missing role Website Contributor on the app',
    });
    expect(e.email.sent[0]!.text).toMatch(/could NOT be disabled \(TRIGGER_SWITCH_PERMISSION\)/);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({ phase: 'probation', enable: { kind: 'failed', retryable: false } });
    expect(inputOf(e.activities(sendActivityName('email')), 1)).toMatchObject({
      kind: 'enable-failed',
      message: 'role removed',
    });
  });

  it('a result no version wrote reads as a failure that says so, not as a switch', async () => {
    earlier = { disable: 'switched', enable: EARLIER_SWITCHED };
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.status().disable).toMatchObject({ kind: 'failed', code: 'SWITCH_OUTCOME_UNREADABLE' });
    expect(e.email.sent[0]!.text).toMatch(/could NOT be disabled \(SWITCH_OUTCOME_UNREADABLE\)/);
  });
});

describe('a notice input recorded with an earlier outcome', () => {
  const tripped = {
    kind: 'tripped',
    tripId: 't1',
    functionName: FN,
    at: new Date(T0).toISOString(),
    failuresInWindow: 6,
  };

  it('reaches the email activity through the worker and renders as the current outcome', async () => {
    const e = await newEpisode();
    const notice = { ...tripped, tripId: e.tripId, disable: { ok: true, soft: true } };
    await invokeRpc(sendActivityName('email'), { trigger: { json: JSON.stringify(notice) } });
    expect(e.email.sent[0]!.text).toMatch(/soft OPEN state holds the stream/);
  });

  it.each([
    ['switched', EARLIER_SWITCHED, 'disabled'],
    ['soft', { ok: true, soft: true }, 'held by the soft OPEN state'],
    ['refused', EARLIER_REFUSED, 'NOT disabled'],
    ['unreadable', 42, 'NOT disabled'],
  ])('says in the webhook what the trigger did (%s)', (_what, disable, fact) => {
    const webhook = makeBreakerWebhookNotices({ publicBaseUrl: 'https://breakwater.example.test' });
    const sent = webhook(readNotice({ ...tripped, disable }), {
      trip: undefined,
      deadLetterCount: 0,
      now: T0,
    });
    expect(sent.facts).toContainEqual(['Trigger', fact]);
  });

  it('of a resumed notice reads the enable in the direction it went', () => {
    const notice = readNotice({ ...tripped, kind: 'resumed', approvedBy: 'a', enable: EARLIER_SWITCHED });
    expect(notice).toMatchObject({ enable: { kind: 'switched', disabled: false } });
  });
});

describe('a custom status written by the earlier version', () => {
  it('reads its switch outcomes in the current shape, and a garbled one as unreadable', () => {
    const stored = { phase: 'probation', tripId: 't1', disable: EARLIER_SWITCHED, enable: EARLIER_REFUSED };
    expect(parseBreakerStatus(stored)).toMatchObject({
      phase: 'probation',
      disable: { kind: 'switched', disabled: true },
      enable: { kind: 'failed', disabled: false, retryable: false, code: 'TRIGGER_SWITCH_PERMISSION' },
    });
    expect(parseBreakerStatus({ phase: 'probation', tripId: 't1', enable: null })?.enable).toMatchObject({
      kind: 'failed',
      code: 'SWITCH_OUTCOME_UNREADABLE',
    });
    expect(parseBreakerStatus({ phase: 'opening', tripId: 't1' })).not.toHaveProperty('disable');
  });
});
