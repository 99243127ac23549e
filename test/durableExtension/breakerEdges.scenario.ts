import { describe, expect, it } from 'vitest';

import type { ExtensionHarness } from '../../sim/durableExtension/extensionHarness';
import { storedHistory, timerLateness } from '../../sim/durableExtension/taskHubHistory';
import { waitUntil } from '../../sim/durableExtension/waitUntil';
import { BREAKER_ORCHESTRATOR, breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { startBreakerOrchestration } from '../../src/orchestration/startBreakerOrchestration';
import { harnessForFile, tripByHand, untilEnded, untilPhase } from './extensionScenario';

/** What the next activities should suffer, set by each scenario (the harness is shared). */
const plan: {
  kill: Set<string>;
  holdAfter?: { name: string; until: () => Promise<void> };
} = { kill: new Set() };

const harness = harnessForFile({
  bridge: {
    beforeActivity: (name) => {
      if (!plan.kill.has(name)) return Promise.resolve('run');
      plan.kill.delete(name);
      return Promise.resolve('kill');
    },
    afterActivity: async (name) => {
      const hold = plan.holdAfter;
      if (hold?.name !== name) return;
      plan.holdAfter = undefined;
      await hold.until();
    },
  },
});

/** Approves with the newest approval link, once there are more than `seen` (an earlier trip's link is not it). */
const approveLatest = async (h: ExtensionHarness, seen = 0) => {
  const link = await waitUntil('an approval link', () =>
    h.approvalLinks().length > seen ? h.approvalLinks().at(-1) : undefined,
  );
  return h.approve(link, 'On-call operator');
};

describe('the breaker on the real Durable extension: the hard cases', () => {
  it('keeps probation for its whole length in orchestration time, though the extension completes timers early', async () => {
    const h = harness();
    const { instanceId } = await tripByHand(h, 'probation timing');
    await untilPhase(h, instanceId, 'awaiting-approval');
    await approveLatest(h);
    await untilEnded(h, instanceId);
    const history = await storedHistory(h.azurite.connectionString, h.host.taskHub, instanceId);
    // Probation's timer is the first one created after the trigger was enabled again.
    const enabledAt = history.findIndex(
      (e) => e.eventType === 'TaskScheduled' && e.name === 'Breaker_EnableTrigger',
    );
    const probation = history.slice(enabledAt).find((e) => e.eventType === 'TimerCreated');
    const closing = history
      .filter((e) => e.eventType === 'TaskScheduled' && e.name === 'Breaker_ReadState')
      .at(-1);
    if (probation?.fireAt === undefined || !closing) throw new Error('no probation in the history');
    const deadline = probation.fireAt;
    // Printed for the record: how the extension's timers completed relative to their FireAt.
    process.stdout.write(`timer completion minus FireAt (ms): ${timerLateness(history).join(', ')}\n`);
    expect(closing.episodeAt).toBeGreaterThanOrEqual(deadline);
  });

  it('refuses a second start of a live instance, and the app reads that as "already running"', async () => {
    const h = harness();
    const { tripId, instanceId } = await tripByHand(h, 'duplicate start');
    await untilPhase(h, instanceId, 'awaiting-approval');
    const input = { tripId, functionName: 'ProcessSensorEvents', failuresInWindow: 0 };
    await expect(h.client().startNew(BREAKER_ORCHESTRATOR, { instanceId, input })).rejects.toThrow();
    await expect(
      startBreakerOrchestration(h.client(), input, { restartStopped: true }),
    ).resolves.toMatchObject({
      started: false,
      runtimeStatus: 'Running',
    });
    await approveLatest(h);
    expect((await untilEnded(h, instanceId)).output).toMatchObject({ phase: 'closed' });
  });

  // Red before the page took an approval in `notifying`: the held answer of the trip email's activity
  // kept the phase there, the page answered 409 "Not waiting for approval yet", and nothing approved.
  it('takes an approval raised before the orchestration waits for it', async () => {
    const h = harness();
    let approved: Awaited<ReturnType<typeof approveLatest>> | undefined;
    const seen = h.approvalLinks().length;
    // The trip email has gone out, but its activity's answer is held: the orchestration is not waiting yet.
    plan.holdAfter = {
      name: 'Breaker_SendEmail',
      until: async () => {
        approved = await approveLatest(h, seen);
      },
    };
    const { instanceId } = await tripByHand(h, 'early approval');
    const done = await untilEnded(h, instanceId);
    expect(approved?.postStatus).toBe(200);
    expect(done.output).toMatchObject({ phase: 'closed', approvedBy: 'On-call operator' });
  });

  it('the watchdog starts the orchestration of an OPEN breaker that has none', async () => {
    const h = harness();
    const longAgo = Date.now() - 10 * 60_000; // past the watchdog's grace period
    const tripId = await h.app.runtime.breakerStore.openManually('opened without an orchestration', longAgo);
    if (tripId === undefined) throw new Error('the breaker was not CLOSED');
    const instanceId = breakerInstanceId(tripId);
    await expect(h.client().getStatus(instanceId)).rejects.toThrow(/404/);
    await h.runWatchdog();
    await untilPhase(h, instanceId, 'awaiting-approval');
    expect(h.isDisabled()).toBe(true);
    await approveLatest(h);
    expect((await untilEnded(h, instanceId)).output).toMatchObject({ phase: 'closed', tripId });
  });

  it('runs an activity again after its worker was killed mid-run, and the episode still closes', async () => {
    const h = harness();
    plan.kill.add('Breaker_DisableTrigger');
    const { instanceId } = await tripByHand(h, 'killed activity');
    await untilPhase(h, instanceId, 'awaiting-approval', 60_000);
    const disables = h.bridge.invocations.filter(
      (i) => i.name === 'Breaker_DisableTrigger' && i.payload.includes(instanceId.replace(/^breaker-/, '')),
    );
    expect(disables.map((i) => i.message ?? 'ok')).toEqual(['killed', 'ok']);
    expect(h.isDisabled()).toBe(true);
    await approveLatest(h);
    expect((await untilEnded(h, instanceId)).output).toMatchObject({ phase: 'closed' });
  });

  it('fails the instance when the orchestrator throws, as Azure does', async () => {
    const h = harness();
    const instanceId = 'breaker-malformed-input';
    await h.client().startNew(BREAKER_ORCHESTRATOR, { instanceId, input: { tripId: 42 } });
    const done = await untilEnded(h, instanceId);
    expect(done.runtimeStatus).toBe('Failed');
    expect(JSON.stringify(done.output)).toMatch(/tripId/);
  });
});
