import type { InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { parseBreakerStatus } from './breakerStatus';
import { findInstance, isLive } from './instanceStatus';
import type { OrchestrationControl, OrchestrationControlFactory } from './orchestrationControl';
import { breakerInstanceId } from './orchestrationIds';
import { raiseApproval } from './raiseApproval';
import { startBreakerOrchestration } from './startBreakerOrchestration';

/** The durable client input every HTTP function that reads or drives the orchestration declares. */
export const durableClientInput = df.input.durableClient();

/** Adapter of the orchestration port over the Durable Functions client bound to this invocation. */
export function durableOrchestrationControl(functionName: string): OrchestrationControlFactory {
  return (context: InvocationContext): OrchestrationControl => {
    const client = df.getClient(context);
    return {
      async view(tripId) {
        const status = await findInstance(client, breakerInstanceId(tripId));
        if (!status) return undefined;
        const custom = parseBreakerStatus(status.customStatus);
        return {
          runtimeStatus: status.runtimeStatus,
          phase: custom?.phase,
          ...(custom?.approvedBy === undefined ? {} : { approvedBy: custom.approvedBy }),
        };
      },
      async raiseApproval(tripId, approvedBy) {
        const result = await raiseApproval(client, tripId, approvedBy);
        if (result.ok) return { ok: true };
        return {
          ok: false,
          refusal: result.reason === 'already-approved' ? 'already-approved' : 'not-waiting',
        };
      },
      async end(tripId, reason) {
        const instanceId = breakerInstanceId(tripId);
        const status = await findInstance(client, instanceId);
        if (!status || !isLive(status)) return false;
        // The client answers 410 (finished meanwhile) by resolving; the reason goes into a query string.
        await client.terminate(instanceId, encodeURIComponent(reason));
        return true;
      },
      async start(tripId) {
        const result = await startBreakerOrchestration(client, {
          tripId,
          functionName,
          failuresInWindow: undefined,
        });
        return { instanceId: result.instanceId, started: result.started };
      },
    };
  };
}
