import { describe, expect, it } from 'vitest';

import { HELD_BY_MAINTENANCE, type MaintenanceRecord } from '../../src/maintenance/maintenance';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { APPROVAL_EVENT } from '../../src/orchestration/orchestrationIds';
import { runWatchdog, type WatchdogDeps } from '../../src/watchdog/runWatchdog';
import { FN, MINUTE, newEpisode, SETTINGS, T0, untilAwaitingApproval } from '../orchestration/breakerFixture';
import { freshMaintenanceRecord } from '../support/maintenanceRecords';
import { recordingEmailSender } from '../support/recordingEmailSender';
import { scriptedTriggerSwitch } from '../support/scriptedTriggerSwitch';
import { recordingLogger, useBreakerServer } from '../watchdog/watchdogFixture';

// Maintenance mode against the breaker: the watchdog leaves a trigger stopped on purpose alone, and a
// real trip during maintenance still runs its whole episode, except that its approval does not switch
// the trigger back on (only leaving maintenance does).
const { client } = useBreakerServer();
const MIGRATION = { reason: 'moving consumers to the new app', by: 'Ana', since: T0 - 5 * MINUTE };

/** A CLOSED episode whose trigger is disabled: in maintenance or not, as the test sets it. */
async function closedAndDisabled(maintenance: Pick<MaintenanceRecord, 'current'>) {
  const e = await newEpisode();
  expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 1_000)).toBe(true);
  const triggerSwitch = scriptedTriggerSwitch();
  await triggerSwitch.setDisabled(FN, true);
  const email = recordingEmailSender();
  const deps: WatchdogDeps = {
    store: e.store,
    functionName: FN,
    graceMs: 2 * MINUTE,
    clock: { now: () => T0 + 10 * MINUTE },
    repair: { triggerSwitch, email, approvers: ['oncall@example.test'] },
    maintenance,
  };
  return { e, triggerSwitch, email, deps };
}

describe('watchdog in maintenance', () => {
  it('does not re-enable the trigger nor email about it', async () => {
    const record = freshMaintenanceRecord(FN);
    await record.enter(MIGRATION);
    const { triggerSwitch, email, deps } = await closedAndDisabled(record);
    const logger = recordingLogger();
    expect(await runWatchdog(deps, client(), logger)).toEqual({ action: 'none', reason: 'maintenance' });
    expect(triggerSwitch.disabled.get(FN)).toBe(true);
    expect(triggerSwitch.calls.filter((c) => !c.disabled)).toEqual([]);
    expect(email.sent).toEqual([]);
    expect(logger.warnings).toEqual([]);

    // Left: the next tick repairs as it always did.
    await record.leave('Ben', T0 + 9 * MINUTE);
    expect(await runWatchdog(deps, client(), logger)).toMatchObject({ action: 'repaired' });
    expect(triggerSwitch.disabled.get(FN)).toBe(false);
  });

  it('a record it cannot read means no repair this tick (never a re-enable blind)', async () => {
    const unreadable = { current: () => Promise.reject(new Error('storage said 503')) };
    const { triggerSwitch, email, deps } = await closedAndDisabled(unreadable);
    const logger = recordingLogger();
    expect(await runWatchdog(deps, client(), logger)).toEqual({ action: 'none', reason: 'maintenance' });
    expect(triggerSwitch.disabled.get(FN)).toBe(true);
    expect(email.sent).toEqual([]);
    expect(logger.warnings).toEqual([
      expect.stringMatching(/maintenance record unreadable \(storage said 503\)/),
    ]);
  });

  it('disables a trigger it finds enabled in maintenance (a failed or raced disable, a reset setting)', async () => {
    const record = freshMaintenanceRecord(FN);
    await record.enter(MIGRATION);
    const { triggerSwitch, deps } = await closedAndDisabled(record);
    await triggerSwitch.setDisabled(FN, false);
    const logger = recordingLogger();
    expect(await runWatchdog(deps, client(), logger)).toEqual({ action: 'none', reason: 'maintenance' });
    expect(triggerSwitch.disabled.get(FN)).toBe(true);
    expect(logger.warnings).toEqual([
      expect.stringMatching(
        /in maintenance \(entered by Ana: moving consumers.*\) but the trigger was enabled/,
      ),
    ]);
  });

  it('still starts the orchestration of a trip that has none: maintenance never hides a trip', async () => {
    const record = freshMaintenanceRecord(FN);
    await record.enter(MIGRATION);
    const e = await newEpisode();
    const deps: WatchdogDeps = {
      store: e.store,
      functionName: FN,
      graceMs: 2 * MINUTE,
      clock: { now: () => T0 + 10 * MINUTE },
      repair: { triggerSwitch: scriptedTriggerSwitch(), email: recordingEmailSender(), approvers: [] },
      maintenance: record,
    };
    expect(await runWatchdog(deps, client(), recordingLogger())).toMatchObject({
      action: 'checked',
      result: { started: true },
    });
  });
});

describe('a trip during maintenance', () => {
  it('pages as always; its approval leaves the trigger off and says why; probation still closes', async () => {
    const record = freshMaintenanceRecord(FN);
    await record.enter(MIGRATION);
    const e = await newEpisode(() => ({ maintenance: record }));
    await untilAwaitingApproval(e);
    expect(e.subjects()).toEqual([expect.stringMatching(/stopped: approval needed/)]);
    expect(e.triggerSwitch.disabled.get(FN)).toBe(true);

    e.host.raiseEvent(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    await e.host.run();
    expect(e.status()).toMatchObject({
      phase: 'probation',
      enable: { kind: 'failed', disabled: false, retryable: false, code: HELD_BY_MAINTENANCE },
    });
    expect(e.triggerSwitch.calls.filter((c) => !c.disabled)).toEqual([]);
    const notice = e.email.sent.at(-1);
    expect(notice?.subject).toMatch(/NOT restarted/);
    expect(notice?.text).toMatch(/maintenance mode holds the trigger off .*by Ana: moving consumers/);
    expect(notice?.text).toMatch(/leaving maintenance/);

    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect((e.host.output as BreakerStatus).phase).toBe('closed');
    expect((await e.store.getState()).state).toBe('CLOSED');
    expect(e.triggerSwitch.disabled.get(FN)).toBe(true);
  });
});
