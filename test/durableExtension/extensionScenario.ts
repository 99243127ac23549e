/** What the scenarios on the real extension share: the harness, and reading an instance's outcome. */
import type { DurableOrchestrationStatus } from 'durable-functions';
import { afterAll, beforeAll } from 'vitest';

import {
  type ExtensionHarness,
  type ExtensionHarnessOptions,
  startExtensionHarness,
} from '../../sim/durableExtension/extensionHarness';
import { waitUntil } from '../../sim/durableExtension/waitUntil';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';

/** One harness for the file's scenarios (starting the extension costs 10–30 s); closed however the file ends. */
export function harnessForFile(options?: ExtensionHarnessOptions): () => ExtensionHarness {
  let started: ExtensionHarness | undefined;
  beforeAll(async () => {
    started = await startExtensionHarness(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return () => {
    if (!started) throw new Error('the harness did not start');
    return started;
  };
}

export const phaseOf = (status: DurableOrchestrationStatus | undefined) =>
  (status?.customStatus as BreakerStatus | undefined)?.phase;

/** Waits until the instance has reached `phase` (read from its custom status, as the operator API does). */
export function untilPhase(
  h: ExtensionHarness,
  instanceId: string,
  phase: BreakerStatus['phase'],
  timeoutMs?: number,
) {
  return waitUntil(
    `instance ${instanceId} in phase ${phase}`,
    async () => {
      const status = await h.client().getStatus(instanceId);
      return phaseOf(status) === phase ? status : undefined;
    },
    timeoutMs,
  );
}

/** Waits until the instance has ended (Completed, Failed, Terminated). */
export function untilEnded(h: ExtensionHarness, instanceId: string, timeoutMs?: number) {
  return waitUntil(
    `instance ${instanceId} ended`,
    async () => {
      const status = await h.client().getStatus(instanceId, { showHistory: true, showHistoryOutput: true });
      return ['Completed', 'Failed', 'Terminated'].includes(status.runtimeStatus) ? status : undefined;
    },
    timeoutMs,
  );
}

/** Subjects of the emails received so far, oldest first. */
export const subjects = (h: ExtensionHarness) => h.smtp.received.map((m) => m.subject ?? '');

/** Opens a manual trip through the operator API; resolves with the trip and its instance. */
export async function tripByHand(h: ExtensionHarness, reason: string) {
  const trip = await h.callApi('breaker/trip', { reason });
  if (trip.status !== 202) throw new Error(`trip answered ${trip.status}: ${JSON.stringify(trip.body)}`);
  const body = trip.body as { tripId: string; instanceId: string | null; orchestrationStarted: boolean };
  if (body.instanceId === null) throw new Error(`trip ${body.tripId} started no orchestration`);
  return { tripId: body.tripId, instanceId: body.instanceId, started: body.orchestrationStarted };
}
