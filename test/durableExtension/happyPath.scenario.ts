import { describe, expect, it } from 'vitest';

import { storedHistory } from '../../sim/durableExtension/taskHubHistory';
import { waitUntil } from '../../sim/durableExtension/waitUntil';
import { ORCHESTRATION_VERSION } from '../../src/orchestration/historyVersion';
import { harnessForFile, subjects, tripByHand, untilEnded, untilPhase } from './extensionScenario';

const harness = harnessForFile();

describe('the breaker on the real Durable extension', () => {
  it('trips, disables through ARM, emails, takes the approval from the public page, re-enables, and closes after probation', async () => {
    const h = harness();
    const { tripId, instanceId, started } = await tripByHand(h, 'downstream outage');
    expect(started).toBe(true);

    await untilPhase(h, instanceId, 'awaiting-approval');
    expect(h.isDisabled()).toBe(true);
    // The extension stamped host.json's defaultVersion on the start, which named none.
    const history = await storedHistory(h.azurite.connectionString, h.host.taskHub, instanceId);
    expect(history.find((e) => e.eventType === 'ExecutionStarted')?.version).toBe(ORCHESTRATION_VERSION);
    const link = await waitUntil('the trip email', () => h.approvalLinks()[0]);
    expect(subjects(h)).toEqual([expect.stringMatching(/stopped: approval needed/)]);

    const approval = await h.approve(link, 'On-call operator');
    expect(approval.postStatus).toBe(200);

    const probation = await untilPhase(h, instanceId, 'probation');
    expect(h.isDisabled()).toBe(false);
    expect(probation.customStatus).toMatchObject({
      approvedBy: 'On-call operator',
      enable: { kind: 'switched', disabled: false },
    });

    const done = await untilEnded(h, instanceId);
    expect(done.runtimeStatus).toBe('Completed');
    expect(done.output).toMatchObject({ phase: 'closed', tripId });
    expect(await h.app.runtime.breakerStore.getState()).toMatchObject({ state: 'CLOSED' });
    expect(subjects(h)).toHaveLength(3); // stopped, resumed, closed: one email each
    // Every step ran in Node through the bridge, replayed by the extension, none failed.
    expect(h.bridge.invocations.filter((i) => !i.ok)).toEqual([]);
    expect(h.bridge.invocations.filter((i) => i.kind === 'activity').map((i) => i.name)).toEqual([
      'Breaker_OpenTrip',
      'Breaker_DisableTrigger',
      'Breaker_SendEmail',
      'Breaker_Transition',
      'Breaker_ResetWindow',
      'Breaker_DrainSaved', // the retention guard's saved events reach the sink before the re-enable (none here)
      'Breaker_EnableTrigger',
      'Breaker_SendEmail',
      'Breaker_ReadState',
      'Breaker_Transition',
      'Breaker_SendEmail',
    ]);
  });
});
