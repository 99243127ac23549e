/**
 * Switch outcomes in the shape of builds before 0.4.0 (`{ ok, soft }` and
 * `{ ok: false, permanent, code, message }`), which this build does not read
 * (orchestration/historyVersion.ts): wherever one is met (an activity result in the history, a notice
 * input, a custom status) it reads as unknown, so nothing claims the trigger was switched.
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

describe('a switch result in the { ok } shape in the history', () => {
  it('reads as unknown: the status and the email say the trigger could not be switched, and the notice carries what was read', async () => {
    earlier = { disable: EARLIER_SWITCHED, enable: EARLIER_SWITCHED };
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    const unknown = { kind: 'failed', code: 'SWITCH_OUTCOME_UNREADABLE', retryable: false };
    expect(e.status().disable).toMatchObject({ ...unknown, disabled: true });
    expect(inputOf(e.activities(sendActivityName('email')), 0).disable).toMatchObject(unknown);
    expect(e.email.sent[0]!.text).toMatch(/could NOT be disabled \(SWITCH_OUTCOME_UNREADABLE\)/);

    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({ phase: 'probation', enable: { ...unknown, disabled: false } });
    expect(inputOf(e.activities(sendActivityName('email')), 1)).toMatchObject({ kind: 'enable-failed' });
  });

  it('a result no version wrote reads the same way', async () => {
    earlier = { disable: 'switched', enable: EARLIER_SWITCHED };
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    expect(e.status().disable).toMatchObject({ kind: 'failed', code: 'SWITCH_OUTCOME_UNREADABLE' });
    expect(e.email.sent[0]!.text).toMatch(/could NOT be disabled \(SWITCH_OUTCOME_UNREADABLE\)/);
  });
});

describe('a notice input holding the { ok } shape', () => {
  const tripped = {
    kind: 'tripped',
    tripId: 't1',
    functionName: FN,
    at: new Date(T0).toISOString(),
    failuresInWindow: 6,
  };

  it('reaches the email activity through the worker and renders as unknown, not as a switch', async () => {
    const e = await newEpisode();
    const notice = { ...tripped, tripId: e.tripId, disable: { ok: true, soft: true } };
    await invokeRpc(sendActivityName('email'), { trigger: { json: JSON.stringify(notice) } });
    expect(e.email.sent[0]!.text).toMatch(/could NOT be disabled \(SWITCH_OUTCOME_UNREADABLE\)/);
    expect(e.email.sent[0]!.text).not.toMatch(/soft OPEN state holds the stream/);
  });

  it.each([
    ['switched', EARLIER_SWITCHED, 'NOT disabled'],
    ['soft', { ok: true, soft: true }, 'NOT disabled'],
    ['refused', EARLIER_REFUSED, 'NOT disabled'],
    ['unreadable', 42, 'NOT disabled'],
    ['in the current shape', { kind: 'soft', disabled: true }, 'held by the soft OPEN state'],
  ])(
    'says in the webhook that the trigger was not disabled unless it reads so (%s)',
    (_what, disable, fact) => {
      const webhook = makeBreakerWebhookNotices({ publicBaseUrl: 'https://breakwater.example.test' });
      const sent = webhook(readNotice({ ...tripped, disable }), {
        trip: undefined,
        deadLetterCount: 0,
        now: T0,
      });
      expect(sent.facts).toContainEqual(['Trigger', fact]);
    },
  );

  it('of a resumed notice reads the enable as unknown, in the direction it went', () => {
    const notice = readNotice({ ...tripped, kind: 'resumed', approvedBy: 'a', enable: EARLIER_SWITCHED });
    expect(notice).toMatchObject({
      enable: { kind: 'failed', disabled: false, code: 'SWITCH_OUTCOME_UNREADABLE' },
    });
  });
});

describe('a custom status holding the { ok } shape', () => {
  it('reads those switch outcomes as unknown, as a garbled one', () => {
    const stored = { phase: 'probation', tripId: 't1', disable: EARLIER_SWITCHED, enable: EARLIER_REFUSED };
    expect(parseBreakerStatus(stored)).toMatchObject({
      phase: 'probation',
      disable: { kind: 'failed', disabled: true, code: 'SWITCH_OUTCOME_UNREADABLE' },
      enable: { kind: 'failed', disabled: false, retryable: false, code: 'SWITCH_OUTCOME_UNREADABLE' },
    });
    expect(parseBreakerStatus({ phase: 'probation', tripId: 't1', enable: null })?.enable).toMatchObject({
      kind: 'failed',
      code: 'SWITCH_OUTCOME_UNREADABLE',
    });
    expect(parseBreakerStatus({ phase: 'opening', tripId: 't1' })).not.toHaveProperty('disable');
  });
});
