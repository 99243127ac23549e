import type { DurableClient } from 'durable-functions';

import type { BreakerOrchestrationInput } from './breakerStatus';
import { findInstance, isLive, isStopped } from './instanceStatus';
import { BREAKER_ORCHESTRATOR, breakerInstanceId } from './orchestrationIds';

export type StartResult =
  | { readonly started: true; readonly instanceId: string; readonly restarted: boolean }
  | { readonly started: false; readonly instanceId: string; readonly runtimeStatus: string };

export interface StartOptions {
  /** Start again over a failed or terminated instance of this trip (the watchdog does; the trigger does not). */
  readonly restartStopped?: boolean;
}

/**
 * Starts the one orchestration of a trip, idempotently. `startNew` replaces an existing instance
 * silently, so the status is read first and a live or completed instance is left alone.
 *
 * Two starters can still both see "no instance" (the trigger and the watchdog at the same moment);
 * the watchdog waits for a grace period after the trip to make that rare, every activity is idempotent,
 * and a start that fails because the other starter won (a host configured to refuse duplicates) is
 * recognised by reading the status again.
 */
export async function startBreakerOrchestration(
  client: DurableClient,
  input: BreakerOrchestrationInput,
  options: StartOptions = {},
): Promise<StartResult> {
  const instanceId = breakerInstanceId(input.tripId);
  const existing = await findInstance(client, instanceId);
  if (existing && !(options.restartStopped === true && isStopped(existing))) {
    return { started: false, instanceId, runtimeStatus: existing.runtimeStatus };
  }
  try {
    await client.startNew(BREAKER_ORCHESTRATOR, { instanceId, input });
  } catch (error) {
    const now = await findInstance(client, instanceId).catch(() => undefined);
    if (now && isLive(now)) return { started: false, instanceId, runtimeStatus: now.runtimeStatus };
    throw error;
  }
  return { started: true, instanceId, restarted: existing !== undefined };
}
