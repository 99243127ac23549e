import { TableClient } from '@azure/data-tables';
import { inject } from 'vitest';

import { DurableHost } from '../../sim/durable/durableHost';
import { issueApprovalLink } from '../../src/approval/issueApprovalLink';
import type { BreakerPolicy } from '../../src/breaker/breakerPolicy';
import { makeTableBreakerStore, type TableBreakerStore } from '../../src/breaker/tableBreakerStore';
import type { BreakerChannel } from '../../src/notify/breakerChannel';
import { makeBreakerMessages } from '../../src/notify/email/breakerMessages';
import { emailChannel } from '../../src/notify/email/emailChannel';
import type { BreakerActivityDeps } from '../../src/orchestration/breakerActivities';
import type { BreakerOrchestratorSettings } from '../../src/orchestration/breakerOrchestrator';
import type { BreakerOrchestrationInput, BreakerStatus } from '../../src/orchestration/breakerStatus';
import { BREAKER_ORCHESTRATOR, breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { registerBreakerOrchestration } from '../../src/orchestration/registerBreakerOrchestration';
import { recordingEmailSender } from '../support/recordingEmailSender';
import { scriptedTriggerSwitch } from '../support/scriptedTriggerSwitch';

export const FN = 'ProcessSensorEvents';
export const T0 = Date.UTC(2026, 0, 1);
export const MINUTE = 60_000;

export const SETTINGS: BreakerOrchestratorSettings = {
  maxReminders: 2,
  reminderMinutes: 3,
  probationSeconds: 600,
  retry: { firstRetryIntervalMs: 5_000, maxAttempts: 3 },
};

const policy: BreakerPolicy = {
  threshold: 5,
  probationThreshold: 2,
  windowMs: 30_000,
  bucketMs: 1_000,
  historyLimit: 10,
};

export const SIGNING_KEY = 'orchestration-test-signing-key-0123456789abcdef';
const tableName = `Orch${Math.random().toString(36).slice(2, 8)}`;
let counter = 0;

let current: BreakerActivityDeps | undefined;

/** A breaker that never tripped (its own partition of an Azurite table): CLOSED, no trip id. */
export function freshStore(): TableBreakerStore {
  const table = TableClient.fromConnectionString(inject('storageConnectionString'), tableName, {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 1 },
  });
  return makeTableBreakerStore({ table, name: `orch${counter++}x${Date.now().toString(36)}`, policy });
}

/** Registers the real orchestrator and activities once per test file; each episode swaps the deps. */
export function registerBreaker(): void {
  registerBreakerWith(SETTINGS);
}

/** The same with other settings (e.g. the webhook channel on). */
export function registerBreakerWith(settings: BreakerOrchestratorSettings): void {
  registerBreakerOrchestration(settings, () => {
    if (!current) throw new Error('no episode: call newEpisode() first');
    return current;
  });
}

export type Episode = Awaited<ReturnType<typeof newEpisode>>;

/** What an episode adds to the defaults: channels after the email, maintenance mode, a notice ledger. */
export interface EpisodeExtras {
  readonly channels?: readonly BreakerChannel[];
  readonly maintenance?: BreakerActivityDeps['maintenance'];
  readonly notices?: BreakerActivityDeps['notices'];
  readonly drainSaved?: BreakerActivityDeps['drainSaved'];
}

const emailMessages = makeBreakerMessages({
  approvers: ['oncall@example.test'],
  issueLink: (subject, now) =>
    issueApprovalLink(
      { signingKeys: [SIGNING_KEY], linkTtlHours: 24, publicBaseUrl: 'https://breakwater.example.test' },
      subject,
      now,
    ),
  probation: { seconds: SETTINGS.probationSeconds, threshold: policy.probationThreshold },
});

/**
 * A fresh breaker (its own partition of an Azurite table) tripped by 6 failures, and a durable host
 * ready to run its orchestration. Activities run against the real Table store.
 */
export async function newEpisode(extra: (clock: DurableHost['clock']) => EpisodeExtras = () => ({})) {
  const store = freshStore();
  const tripped = await store.record(failures(6), T0);
  if (!tripped.tripped || tripped.tripId === undefined) throw new Error('the store did not trip');
  const tripId = tripped.tripId;
  const input: BreakerOrchestrationInput = {
    tripId,
    functionName: FN,
    failuresInWindow: tripped.failuresInWindow,
  };
  const host = new DurableHost({
    orchestrator: BREAKER_ORCHESTRATOR,
    instanceId: breakerInstanceId(tripId),
    input,
    startAt: T0 + 1_000,
  });
  const triggerSwitch = scriptedTriggerSwitch();
  const email = recordingEmailSender();
  const extras = extra(host.clock);
  const deps: BreakerActivityDeps = {
    store,
    triggerSwitch,
    controlMode: 'arm',
    channels: [emailChannel({ sender: email, render: emailMessages }), ...(extras.channels ?? [])],
    clock: host.clock,
    deadLetterCount: () => Promise.resolve(7),
    ...(extras.maintenance && { maintenance: extras.maintenance }),
    ...(extras.notices && { notices: extras.notices }),
    ...(extras.drainSaved && { drainSaved: extras.drainSaved }),
  };
  current = deps;
  const status = () => host.customStatus as BreakerStatus;
  const subjects = () => email.sent.map((m) => m.subject);
  const activities = (name: string) => host.activityRuns.filter((r) => r.name === name);
  return { store, tripId, input, host, triggerSwitch, email, deps, status, subjects, activities };
}

export const failures = (n: number, prefix = 'e') =>
  Array.from({ length: n }, (_, i) => ({
    eventKey: `${prefix}${i}`,
    kind: 'transient' as const,
    message: `boom ${i}`,
  }));

/** Runs until the orchestration waits for approval (trip notice sent). */
export async function untilAwaitingApproval(e: Episode): Promise<void> {
  await e.host.run();
  const phase = e.status().phase;
  if (phase !== 'awaiting-approval')
    throw new Error(
      `expected awaiting-approval, got ${JSON.stringify(e.status())} ${JSON.stringify(e.host.activityRuns)}`,
    );
}
