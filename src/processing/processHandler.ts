import type { EventHubHandler, InvocationContext } from '@azure/functions';

import type { BreakerTrippedHandler } from '../breaker/breakerGate';
import type { BatchProcessor } from './batchProcessor';
import { readTriggerBatch } from '../hub/readTriggerBatch';

export interface ProcessHandlerDeps {
  readonly processBatch: BatchProcessor;
  readonly triggerRetry: TriggerRetryConfig;
  /** Starts the breaker orchestration when this invocation's failures trip the breaker. */
  readonly onTripped?: (context: InvocationContext) => BreakerTrippedHandler;
}

/**
 * The guarded Event Hubs trigger. It returns only when every event of the batch is processed or
 * dead-lettered; it throws (BatchHeldError, CircuitOpenError, DeadLetterWriteError) to hold the batch:
 * the host's retry policy then re-runs it without advancing the checkpoint. `retryContext.retryCount`
 * tells the processor how often this batch was re-run (the isolation rule counts them).
 */
export function makeProcessHandler(deps: ProcessHandlerDeps): EventHubHandler {
  return async (messages: unknown, context: InvocationContext) => {
    const batch = readTriggerBatch(messages, context.triggerMetadata);
    if (batch.warnings.length > 0) {
      context.warn(
        `trigger metadata incomplete: ${batch.warnings.join('; ')}. The events are still processed.`,
      );
    }
    if (batch.events.length === 0) {
      context.log('empty batch: nothing to do');
      return;
    }
    const retryCount = context.retryContext?.retryCount ?? 0;
    const { maxRetryCount } = deps.triggerRetry;
    const result = await deps.processBatch(batch.events, {
      invocationId: context.invocationId,
      logger: context,
      finalAttempt: maxRetryCount !== -1 && retryCount >= maxRetryCount,
      rerun: retryCount,
      ...(deps.onTripped ? { onTripped: deps.onTripped(context) } : {}),
    });
    context.log(
      `batch of ${batch.events.length} (partition ${batch.events[0]?.partitionId ?? '?'}, retry ${retryCount}): ` +
        `${result.processed} processed, ${result.deadLettered} dead-lettered`,
    );
  };
}

export interface TriggerRetryConfig {
  readonly maxRetryCount: number;
  readonly minimumIntervalSeconds: number;
  readonly maximumIntervalSeconds: number;
}
