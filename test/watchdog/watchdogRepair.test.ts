import { describe, expect, it } from 'vitest';

import { runWatchdog, type WatchdogDeps } from '../../src/watchdog/runWatchdog';
import { FN, MINUTE, newEpisode, T0 } from '../orchestration/breakerFixture';
import { recordingEmailSender } from '../support/recordingEmailSender';
import { scriptedTriggerSwitch } from '../support/scriptedTriggerSwitch';
import { recordingLogger, useBreakerServer } from './watchdogFixture';

// CLOSED with the trigger disabled is a state nothing else leaves: the approval link says "already
// closed", reset answers 409. The watchdog repairs it.
const { client } = useBreakerServer();

async function closedButDisabled() {
  const e = await newEpisode();
  const triggerSwitch = scriptedTriggerSwitch();
  await triggerSwitch.setDisabled(FN, true);
  // A forced reset closed the episode, then a late disable landed.
  expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 1_000)).toBe(true);
  const email = recordingEmailSender();
  const deps = (now: number): WatchdogDeps => ({
    store: e.store,
    functionName: FN,
    graceMs: 2 * MINUTE,
    clock: { now: () => now },
    repair: { triggerSwitch, email, approvers: ['oncall@example.test'] },
  });
  return { e, triggerSwitch, email, deps };
}

describe('watchdog: CLOSED but the trigger disabled', () => {
  it('enables the trigger, logs it, and emails the operators once', async () => {
    const { e, triggerSwitch, email, deps } = await closedButDisabled();
    const logger = recordingLogger();
    expect(await runWatchdog(deps(T0 + 10 * MINUTE), client(), logger)).toEqual({
      action: 'repaired',
      tripId: e.tripId,
    });
    expect(triggerSwitch.disabled.get(FN)).toBe(false);
    expect(logger.warnings).toEqual([
      expect.stringMatching(
        /CLOSED but the trigger was disabled \(AzureWebJobs\.ProcessSensorEvents\.Disabled=true\): enabled it/,
      ),
    ]);
    expect(email.sent).toHaveLength(1);
    expect(email.sent[0]).toMatchObject({ to: ['oncall@example.test'] });
    expect(email.sent[0]!.text).toContain(e.tripId);

    // The next tick finds it enabled: nothing more to do, no second email.
    expect(await runWatchdog(deps(T0 + 11 * MINUTE), client(), logger)).toEqual({
      action: 'none',
      reason: 'closed',
    });
    expect(email.sent).toHaveLength(1);
  });

  it('leaves a state that just closed alone for the grace period (a reset may still be enabling)', async () => {
    const { triggerSwitch, deps } = await closedButDisabled();
    expect(await runWatchdog(deps(T0 + 30_000), client(), recordingLogger())).toEqual({
      action: 'none',
      reason: 'grace',
    });
    expect(triggerSwitch.disabled.get(FN)).toBe(true);
  });
});
