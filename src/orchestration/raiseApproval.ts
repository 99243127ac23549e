import type { DurableClient } from 'durable-functions';

import { type ApprovalEventData, parseBreakerStatus, PHASES_AFTER_APPROVAL } from './breakerStatus';
import { findInstance, isLive } from './instanceStatus';
import { APPROVAL_EVENT, breakerInstanceId } from './orchestrationIds';

export type RaiseApprovalResult =
  | { readonly ok: true; readonly instanceId: string }
  | {
      readonly ok: false;
      readonly instanceId: string;
      /** `no-instance`: no orchestration for this trip; `not-running`: it ended; `already-approved`: past the wait. */
      readonly reason: 'no-instance' | 'not-running' | 'already-approved';
      readonly runtimeStatus?: string;
    };

/**
 * Delivers an approval to the orchestration of `tripId`. The approval page (after verifying its
 * signed token) and the internal test endpoint both call this. The orchestration itself ignores
 * approvals for other trips and duplicates, so this check is for a clear answer to the caller.
 */
export async function raiseApproval(
  client: DurableClient,
  tripId: string,
  approvedBy: string,
): Promise<RaiseApprovalResult> {
  const instanceId = breakerInstanceId(tripId);
  const instance = await findInstance(client, instanceId);
  if (!instance) return { ok: false, instanceId, reason: 'no-instance' };
  if (!isLive(instance))
    return { ok: false, instanceId, reason: 'not-running', runtimeStatus: instance.runtimeStatus };
  const phase = parseBreakerStatus(instance.customStatus)?.phase;
  if (phase !== undefined && PHASES_AFTER_APPROVAL.includes(phase))
    return { ok: false, instanceId, reason: 'already-approved', runtimeStatus: instance.runtimeStatus };
  const data: ApprovalEventData = { tripId, approvedBy };
  await client.raiseEvent(instanceId, APPROVAL_EVENT, data);
  return { ok: true, instanceId };
}
