import { describe, expect, it } from 'vitest';

import { waitUntil } from '../../sim/durableExtension/waitUntil';
import { harnessForFile, subjects, tripByHand, untilEnded, untilPhase } from './extensionScenario';

const harness = harnessForFile();

describe('the breaker on the real Durable extension: no approval in time', () => {
  it('sends one reminder after the reminder interval, then still takes the approval', async () => {
    const h = harness();
    const { instanceId } = await tripByHand(h, 'nobody answers');
    await untilPhase(h, instanceId, 'awaiting-approval');
    // APPROVAL_REMINDER_MINUTES=1 (its minimum), APPROVAL_MAX_REMINDERS=1.
    await waitUntil('the reminder', () => (subjects(h).length >= 2 ? true : undefined), 90_000);
    expect(subjects(h)[1]).toMatch(/reminder/i);
    const status = await h.client().getStatus(instanceId);
    expect(status.customStatus).toMatchObject({ phase: 'awaiting-approval', remindersSent: 1 });

    const link = h.approvalLinks().at(-1);
    if (!link) throw new Error('no approval link');
    expect((await h.approve(link, 'Late operator')).postStatus).toBe(200);
    expect((await untilEnded(h, instanceId)).output).toMatchObject({
      phase: 'closed',
      approvedBy: 'Late operator',
    });
    expect(subjects(h)).toHaveLength(4); // stopped, reminder, resumed, closed
  });
});
