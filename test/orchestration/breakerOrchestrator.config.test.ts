import { beforeAll, describe, expect, it } from 'vitest';

import { replay } from '../../sim/durable/replay';
import type { BreakerActivityDeps } from '../../src/orchestration/breakerActivities';
import type { BreakerOrchestratorSettings } from '../../src/orchestration/breakerOrchestrator';
import { APPROVAL_EVENT, BREAKER_ORCHESTRATOR } from '../../src/orchestration/orchestrationIds';
import { registerBreakerOrchestration } from '../../src/orchestration/registerBreakerOrchestration';
import { newEpisode, SETTINGS, untilAwaitingApproval } from './breakerFixture';

// Settings the test changes mid-episode, as a config change plus app restart would.
const settings: { -readonly [K in keyof BreakerOrchestratorSettings]: BreakerOrchestratorSettings[K] } = {
  ...SETTINGS,
};
let deps: BreakerActivityDeps | undefined;

beforeAll(() => {
  registerBreakerOrchestration(settings, () => {
    if (!deps) throw new Error('no episode');
    return deps;
  });
});

describe('breaker orchestration: config changes mid-episode', () => {
  it('runs an episode by the settings it started with, and replays the same way', async () => {
    const e = await newEpisode();
    deps = e.deps;
    await untilAwaitingApproval(e);
    settings.maxReminders = 0;
    settings.probationSeconds = 1;

    await e.host.fireNextTimer();
    await e.host.fireNextTimer();
    expect(e.status().remindersSent).toBe(2);
    await e.host.deliver(APPROVAL_EVENT, { tripId: e.tripId, approvedBy: 'oncall@example.test' });
    e.host.advance(1_000);
    await e.host.run();
    expect(e.status().phase).toBe('probation');
    e.host.advance(SETTINGS.probationSeconds * 1000);
    await e.host.run();
    expect(e.status().phase).toBe('closed');

    const again = await replay(BREAKER_ORCHESTRATOR, e.host.options.instanceId, e.host.history, e.input);
    expect(again.state.actions).toEqual(e.host.episodes.at(-1)!.actions);
  });
});
