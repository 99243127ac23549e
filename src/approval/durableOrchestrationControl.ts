import type { InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { APPROVAL_EVENT, BREAKER_ORCHESTRATOR, breakerInstanceId } from '../breaker/orchestrationIds';
import type {
  OrchestrationControl,
  OrchestrationControlFactory,
  OrchestrationView,
} from './orchestrationControl';

/** The durable client input every HTTP function that reads or drives the orchestration declares. */
export const durableClientInput = df.input.durableClient();

/** Adapter of the orchestration port over the Durable Functions client bound to this invocation. */
export function durableOrchestrationControl(functionName: string): OrchestrationControlFactory {
  return (context: InvocationContext): OrchestrationControl => {
    const client = df.getClient(context);
    return {
      async view(tripId): Promise<OrchestrationView | undefined> {
        let status: df.DurableOrchestrationStatus;
        try {
          status = await client.getStatus(breakerInstanceId(tripId));
        } catch (error) {
          // getStatus throws on 404 instead of returning nothing; other errors are real failures.
          if (error instanceof Error && /HTTP 404/.test(error.message)) return undefined;
          throw error;
        }
        return { runtimeStatus: status.runtimeStatus, ...readCustomStatus(status.customStatus) };
      },
      async raiseApproval(tripId, approvedBy) {
        // The orchestration ignores approvals whose trip id is not its own.
        await client.raiseEvent(breakerInstanceId(tripId), APPROVAL_EVENT, { tripId, approvedBy });
      },
      start(tripId) {
        return client.startNew(BREAKER_ORCHESTRATOR, {
          instanceId: breakerInstanceId(tripId),
          input: { tripId, functionName, failuresInWindow: undefined },
        });
      },
    };
  };
}

function readCustomStatus(value: unknown): { phase: string | undefined; approvedBy?: string } {
  if (typeof value !== 'object' || value === null) return { phase: undefined };
  const { phase, approvedBy } = value as Record<string, unknown>;
  return {
    phase: typeof phase === 'string' ? phase : undefined,
    ...(typeof approvedBy === 'string' ? { approvedBy } : {}),
  };
}
