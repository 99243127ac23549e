import type { InvocationContext } from '@azure/functions';
import type { DurableClient } from 'durable-functions';
import * as df from 'durable-functions';

import type { BreakerTrippedHandler } from '../breaker/breakerGate';
import type { BreakerOrchestrationInput } from './breakerStatus';
import { startBreakerOrchestration, type StartResult } from './startBreakerOrchestration';

export type StartBreaker = (client: DurableClient, input: BreakerOrchestrationInput) => Promise<StartResult>;

/**
 * The processing trigger's "breaker tripped" seam: starts the trip's one orchestration through the
 * durable client bound to this invocation. A failure propagates to the batch processor, which logs
 * it; the watchdog then starts the orchestration.
 */
export function makeOnTripped(functionName: string, start: StartBreaker = startBreakerOrchestration) {
  return (context: InvocationContext): BreakerTrippedHandler =>
    async ({ tripId, failuresInWindow }) => {
      const result = await start(df.getClient(context), { tripId, functionName, failuresInWindow });
      context.log(
        result.started
          ? `breaker orchestration ${result.instanceId} started`
          : `breaker orchestration ${result.instanceId} already exists (${result.runtimeStatus}): not started again`,
      );
    };
}
