import { describe, expect, it } from 'vitest';

import { waitUntil } from '../../sim/durableExtension/waitUntil';
import { sendActivityName } from '../../src/orchestration/activityNames';
import { harnessForFile, subjects, tripByHand, untilEnded, untilPhase } from './extensionScenario';

/**
 * The host dies while an activity is in flight (a crash, or the Recreate restart that the trip's own
 * settings write causes): the extension does not know the activity ran. Its message becomes visible
 * again after `workItemQueueVisibilityTimeout` (5 minutes by default, 10 s here) and the next host runs
 * it again, once it holds the control queue's lease (the dead host's lapses after `leaseInterval`).
 */
const held: { name?: string; reached?: () => void; release?: Promise<void> } = {};

const harness = harnessForFile({
  workItemVisibility: '00:00:10',
  bridge: {
    afterActivity: async (name) => {
      if (held.name !== name) return;
      held.name = undefined;
      held.reached?.();
      // Never answers this attempt: the host it would answer is killed meanwhile.
      await held.release;
    },
  },
});

describe('the breaker on the real Durable extension: the host crashes mid-activity', () => {
  it('runs the trip email again on the next host, sends it once (the notice ledger), and the episode closes', async () => {
    const h = harness();
    let release = () => {};
    held.release = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reached = new Promise<void>((resolve) => {
      held.reached = resolve;
    });
    held.name = sendActivityName('email');

    const { instanceId } = await tripByHand(h, 'host crash');
    // The email went out (the activity ran to its end), but its answer never reaches the dying host.
    await reached;
    expect(subjects(h).filter((s) => /approval needed/.test(s))).toHaveLength(1);
    await h.crashHost();
    release();

    // The new host runs the email activity again: the ledger says it was sent, so nothing goes out.
    await untilPhase(h, instanceId, 'awaiting-approval', 150_000);
    const emailRuns = h.bridge.invocations.filter(
      (i) => i.kind === 'activity' && i.name === sendActivityName('email'),
    );
    expect(emailRuns.length).toBe(2);
    expect(subjects(h).filter((s) => /approval needed/.test(s))).toHaveLength(1);

    const link = await waitUntil('an approval link', () => h.approvalLinks().at(-1));
    expect((await h.approve(link, 'On-call operator')).postStatus).toBe(200);
    expect((await untilEnded(h, instanceId, 60_000)).output).toMatchObject({
      phase: 'closed',
      approvedBy: 'On-call operator',
    });
    expect(h.isDisabled()).toBe(false);
  });
});
