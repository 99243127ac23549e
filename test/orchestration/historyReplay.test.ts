/**
 * Histories written by another build, replayed by this one's orchestrator through the real
 * durable-functions engine: one recorded from release 0.4.0 (unversioned) still replays and takes its
 * approval; the shapes of builds before 0.4.0, and a version newer than this build's, fail by name.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  type Action,
  ActionType,
  type HistoryEvent,
  historyEvent,
  HistoryEventType,
  replay,
  scheduledLeaves,
} from '../../sim/durable/replay';
import { readDefaultOrchestrationVersion } from '../../sim/host/hostConfig';
import { BreakerActivity } from '../../src/orchestration/activityNames';
import { ORCHESTRATION_VERSION } from '../../src/orchestration/historyVersion';
import { APPROVAL_EVENT, BREAKER_ORCHESTRATOR } from '../../src/orchestration/orchestrationIds';
import { registerBreaker } from './breakerFixture';

interface RecordedHistory {
  readonly instanceId: string;
  readonly input: { readonly tripId: string };
  readonly history: HistoryEvent[];
}

const recorded = JSON.parse(
  readFileSync(path.join(__dirname, 'histories/v0.4.0-awaiting-approval.json'), 'utf8'),
) as RecordedHistory;
const { tripId } = recorded.input;
const at = Date.parse(recorded.history.at(-1)?.Timestamp ?? '') + 60_000;

beforeAll(() => {
  registerBreaker();
});

const replayed = (history: readonly HistoryEvent[]) =>
  replay(BREAKER_ORCHESTRATOR, recorded.instanceId, history, recorded.input);

/** What a history scheduled, in order: activities by name, timers as `timer`. */
const scheduledIn = (history: readonly HistoryEvent[]) =>
  history
    .filter(
      (e) => e.EventType === HistoryEventType.TaskScheduled || e.EventType === HistoryEventType.TimerCreated,
    )
    .map((e) => (e.EventType === HistoryEventType.TimerCreated ? 'timer' : String(e.Name)));
const leafName = (a: Action) => (a.actionType === ActionType.CreateTimer ? 'timer' : String(a.functionName));

const withEvents = (...events: HistoryEvent[]) => [
  ...recorded.history,
  historyEvent(HistoryEventType.OrchestratorStarted, at, {}),
  ...events,
];
const approval = (forTrip: string) =>
  historyEvent(HistoryEventType.EventRaised, at, {
    Name: APPROVAL_EVENT,
    Input: JSON.stringify({ tripId: forTrip, approvedBy: 'oncall@example.test' }),
  });

/** The recorded history with its first event changed: the openTrip result, or the ExecutionStarted. */
function rewritten(change: (event: Record<string, unknown>) => void): HistoryEvent[] {
  return recorded.history.map((e) => {
    const copy: Record<string, unknown> = { ...e };
    change(copy);
    return copy as unknown as HistoryEvent;
  });
}

describe('a history recorded from release 0.4.0 (unversioned)', () => {
  it('replays to the same schedule and still waits for the approval of its trip', async () => {
    expect(recorded.history.find((e) => e.EventType === HistoryEventType.ExecutionStarted)?.Version).toBe('');
    const { state, failure } = await replayed(recorded.history);
    expect(failure).toBeUndefined();
    expect(state.isDone).toBe(false);
    expect(scheduledLeaves(state).map(leafName)).toEqual(scheduledIn(recorded.history));
  });

  it("takes the approval of its trip: the next step is the store's HALF_OPEN for that trip", async () => {
    const before = scheduledIn(recorded.history).length;
    const { state, failure } = await replayed(withEvents(approval(tripId)));
    expect(failure).toBeUndefined();
    const next = scheduledLeaves(state).slice(before);
    expect(next[0]).toMatchObject({
      functionName: BreakerActivity.transition,
      input: { from: 'OPEN', to: 'HALF_OPEN', tripId, approvedBy: 'oncall@example.test' },
    });
  });

  it('does not take an approval of another trip: it waits on, to the same reminder time', async () => {
    const before = scheduledIn(recorded.history);
    const reminderAt = scheduledLeaves((await replayed(recorded.history)).state).at(-1)?.fireAt;
    const { state, failure } = await replayed(withEvents(approval(`${tripId}x`)));
    expect(failure).toBeUndefined();
    const next = scheduledLeaves(state).slice(before.length);
    expect(next.map(leafName)).toEqual(['timer']);
    expect(next[0]?.fireAt).toBe(reminderAt);
  });

  it('an unversioned instance as the extension hands it over (Version null) replays as the recorded one', async () => {
    const history = rewritten((e) => {
      if (e.EventType === HistoryEventType.ExecutionStarted) e.Version = null;
    });
    const { state, failure } = await replayed(history);
    expect(failure).toBeUndefined();
    expect(scheduledLeaves(state).map(leafName)).toEqual(scheduledIn(recorded.history));
  });
});

describe('histories this build does not read', () => {
  it('episode settings without their channels (builds before 0.4.0) fail the instance by name', async () => {
    const history = rewritten((e) => {
      if (e.EventType !== HistoryEventType.TaskCompleted || typeof e.Result !== 'string') return;
      const result = JSON.parse(e.Result) as { settings?: Record<string, unknown> };
      if (!result.settings) return;
      delete result.settings.channels;
      e.Result = JSON.stringify(result);
    });
    const { failure } = await replayed(history);
    expect(failure).toMatch(/name no channels: a build before 0\.4\.0 wrote them/);
  });

  it('a version newer than this build fails by name instead of being misread', async () => {
    const history = rewritten((e) => {
      if (e.EventType === HistoryEventType.ExecutionStarted) e.Version = '2';
    });
    const { failure } = await replayed(history);
    expect(failure).toMatch(
      /reads orchestrations of version 1\.0 and unversioned ones.*this one is version "2"/,
    );
  });

  it(`this build's own version (${ORCHESTRATION_VERSION}) replays as the unversioned 0.4.0 one does`, async () => {
    const history = rewritten((e) => {
      if (e.EventType === HistoryEventType.ExecutionStarted) e.Version = ORCHESTRATION_VERSION;
    });
    const { state, failure } = await replayed([
      ...history,
      historyEvent(HistoryEventType.OrchestratorStarted, at, {}),
      approval(tripId),
    ]);
    expect(failure).toBeUndefined();
    expect(scheduledLeaves(state).map(leafName)).toContain(BreakerActivity.transition);
  });
});

it("host.json's defaultVersion is the version this build's orchestrator is written for", () => {
  expect(readDefaultOrchestrationVersion()).toBe(ORCHESTRATION_VERSION);
});
