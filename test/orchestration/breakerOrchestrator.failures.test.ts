import { beforeAll, describe, expect, it } from 'vitest';

import { HistoryEventType, replay } from '../../sim/durable/replay';
import { TriggerSwitchPermissionError, TriggerSwitchTransientError } from '../../src/control/errors';
import { EmailRejectedError } from '../../src/notify/email/errors';
import { BreakerActivity, sendActivityName } from '../../src/orchestration/activityNames';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT, BREAKER_ORCHESTRATOR } from '../../src/orchestration/orchestrationIds';
import { newEpisode, registerBreaker, SETTINGS, untilAwaitingApproval } from './breakerFixture';

beforeAll(registerBreaker);

describe('breaker orchestration: failing activities', () => {
  it('retries a transient disable failure on the durable retry timer, then carries on', async () => {
    const e = await newEpisode();
    e.triggerSwitch.failNext(new TriggerSwitchTransientError('ARM answered 503', 503));
    await e.host.run();
    expect(e.status().phase).toBe('disabling');
    expect(e.host.pendingTimers.map((t) => t.fireAt - e.host.now)).toEqual([
      SETTINGS.retry.firstRetryIntervalMs,
    ]);

    await e.host.fireNextTimer();
    expect(e.activities(BreakerActivity.disableTrigger).map((r) => [r.attempt, r.outcome.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(e.status()).toMatchObject({
      phase: 'awaiting-approval',
      disable: { kind: 'switched', disabled: true },
    });
    expect(e.triggerSwitch.disabled.get('ProcessSensorEvents')).toBe(true);
  });

  it('reports a permanent (403) disable failure in the email and status without retrying', async () => {
    const e = await newEpisode();
    e.triggerSwitch.failAlways(
      new TriggerSwitchPermissionError('missing role Website Contributor on the app', 403),
    );
    await untilAwaitingApproval(e);
    expect(e.triggerSwitch.calls).toHaveLength(1);
    expect(e.status().disable).toEqual({
      kind: 'failed',
      disabled: true,
      retryable: false,
      code: 'TRIGGER_SWITCH_PERMISSION',
      message: 'missing role Website Contributor on the app',
    });
    expect(e.email.sent[0]!.text).toMatch(/could NOT be disabled \(TRIGGER_SWITCH_PERMISSION\)/);
    expect(e.email.sent[0]!.text).toMatch(/Website Contributor/);
    // Reminders repeat it, and the switch is still not retried.
    await e.host.fireNextTimer();
    expect(e.email.sent[1]!.subject).toMatch(/Reminder 1\/2/);
    expect(e.email.sent[1]!.text).toMatch(/could NOT be disabled/);
    expect(e.triggerSwitch.calls).toHaveLength(1);
  });

  it('gives up on a transient failure after the bounded attempts and still waits for approval', async () => {
    const e = await newEpisode();
    e.triggerSwitch.failAlways(new TriggerSwitchTransientError('ARM answered 503', 503));
    await e.host.run();
    for (let i = 0; i < SETTINGS.retry.maxAttempts; i++) await e.host.fireNextTimer();
    expect(e.triggerSwitch.calls).toHaveLength(SETTINGS.retry.maxAttempts);
    expect(e.status()).toMatchObject({
      phase: 'awaiting-approval',
      disable: { kind: 'failed', disabled: true, retryable: true, code: 'RETRIES_EXHAUSTED' },
    });
  });

  it('records an email that cannot be sent in the status and keeps going', async () => {
    const e = await newEpisode();
    e.email.failNext(SETTINGS.retry.maxAttempts);
    await e.host.run();
    for (let i = 0; i < SETTINGS.retry.maxAttempts; i++) await e.host.fireNextTimer();
    expect(e.status()).toMatchObject({ phase: 'awaiting-approval' });
    expect(e.status().emailError).toMatch(/^tripped: .*mail server unavailable/);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status().phase).toBe('probation');
  });

  it('records an email the provider refuses (a permanent 4xx) at once, without retrying it', async () => {
    const e = await newEpisode();
    e.email.failNext(1, new EmailRejectedError('ACS rejected the email (HTTP 400): bad recipient'));
    await e.host.run();
    expect(e.activities(sendActivityName('email'))).toHaveLength(1);
    expect(e.status()).toMatchObject({
      phase: 'awaiting-approval',
      emailError: 'tripped: ACS rejected the email (HTTP 400): bad recipient',
    });
    // The reminder is sent as usual: a refusal of one notice does not silence the next.
    await e.host.fireNextTimer();
    expect(e.subjects()).toEqual([expect.stringMatching(/Reminder 1\/2/)]);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status().phase).toBe('probation');
  });

  it('still runs probation when re-enabling fails, and tells the operators to enable by hand', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    e.triggerSwitch.failAlways(new TriggerSwitchPermissionError('role removed', 403));
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    expect(e.status()).toMatchObject({
      phase: 'probation',
      enable: { kind: 'failed', disabled: false, retryable: false },
    });
    expect(e.subjects().at(-1)).toMatch(/approved but NOT restarted/);
  });
});

describe('breaker orchestration: replay', () => {
  it('is deterministic: replaying any recorded history prefix yields the same actions (a restart)', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    await e.host.fireNextTimer();
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect(e.host.runtimeStatus).toBe('Completed');
    const activityRuns = e.host.activityRuns.length;

    // A worker restart replays the stored history: same actions, same output, no activity executed.
    const again = await replay(BREAKER_ORCHESTRATOR, e.host.options.instanceId, e.host.history, e.input);
    expect(again.state.actions).toEqual(e.host.episodes.at(-1)!.actions);
    expect(again.state.output).toEqual(e.host.output);
    expect(e.host.activityRuns).toHaveLength(activityRuns);

    // Mid-orchestration: cut the history after each episode and replay it.
    const ends = e.host.history.flatMap((h, i) =>
      h.EventType === HistoryEventType.OrchestratorCompleted ? [i + 1] : [],
    );
    for (const [n, end] of ends.entries()) {
      const partial = await replay(
        BREAKER_ORCHESTRATOR,
        e.host.options.instanceId,
        e.host.history.slice(0, end),
        e.input,
      );
      expect(partial.state.actions).toEqual(e.host.episodes[n]!.actions);
    }
  });

  it('logs each step once across replays', async () => {
    const e = await newEpisode();
    await untilAwaitingApproval(e);
    await e.host.fireNextTimer();
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    const approvedLogs = e.host.logs.filter((l) => l.message.includes('approved by oncall'));
    const reminderLogs = e.host.logs.filter((l) => l.message.includes('reminder 1 of'));
    expect(approvedLogs).toHaveLength(1);
    expect(reminderLogs).toHaveLength(1);
    expect(e.host.episodes.length).toBeGreaterThan(3);
    expect((e.host.customStatus as BreakerStatus).phase).toBe('probation');
  });
});
