import type { EventHubHandler, InvocationContext } from '@azure/functions';

import type { BreakerTrippedHandler } from '../breaker/breakerGate';
import { readTriggerBatch } from '../hub/readTriggerBatch';
import type { Logger } from '../kernel/logger';
import type { BatchProcessor } from './batchProcessor';

/**
 * Drains what the retention guard saved for a partition before its batch runs (G7): resolves to the
 * sequence numbers whose saved copy was drained, so the batch's own copies of them are done (undefined:
 * none saved); throws like a held batch when the saved events cannot reach the sink yet. The retention
 * folder implements it (`makeSavedFirst`).
 */
export type SavedFirst = (
  partitionId: string,
  run: { readonly rerun: number; readonly invocationId: string; readonly logger: Logger },
) => Promise<ReadonlySet<number> | undefined>;

export interface ProcessHandlerDeps {
  readonly processBatch: BatchProcessor;
  readonly triggerRetry: TriggerRetryConfig;
  /** Starts the breaker orchestration when this invocation's failures trip the breaker. */
  readonly onTripped?: (context: InvocationContext) => BreakerTrippedHandler;
  /** Drains what the retention guard saved for the batch's partition first (G7); absent: no guard. */
  readonly savedFirst?: SavedFirst;
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
    const partitionId = batch.events[0]?.partitionId;
    // Throws like a held batch when the saved events cannot reach the sink yet: the batch stays held.
    const drained =
      deps.savedFirst && partitionId !== undefined
        ? await deps.savedFirst(partitionId, {
            rerun: retryCount,
            invocationId: context.invocationId,
            logger: context,
          })
        : undefined;
    const events =
      drained === undefined
        ? batch.events
        : batch.events.filter((e) => e.sequenceNumber === undefined || !drained.has(e.sequenceNumber));
    if (events.length === 0) {
      context.log(
        `batch of ${batch.events.length} (partition ${partitionId ?? '?'}): every event was saved and drained`,
      );
      return;
    }
    const result = await deps.processBatch(events, {
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
