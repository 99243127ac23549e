import {
  app,
  type EventHubFunctionOptions,
  type EventHubHandler,
  type InvocationContext,
} from '@azure/functions';
import * as df from 'durable-functions';

import { getRuntime } from '../composition/runtime';
import type { TriggerRetryConfig } from '../config/appConfig';
import { makeOnTripped } from '../orchestration/onTripped';
import type { BreakerTrippedHandler } from '../processing/breakerGate';
import type { BatchProcessor } from '../processing/batchProcessor';
import { readTriggerBatch } from '../processing/readTriggerBatch';

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

const runtime = getRuntime();
const { config } = runtime;

/** `dataType` is a binding property the library passes through but does not type. */
const options: EventHubFunctionOptions & { dataType: 'binary' } = {
  connection: config.eventHub.connectionSetting,
  eventHubName: '%EVENTHUB_NAME%',
  consumerGroup: '%EVENTHUB_CONSUMER_GROUP%',
  cardinality: 'many',
  // Bodies arrive as bytes: with cardinality 'many' and no dataType the host's JSON binding fails the
  // whole batch on one non-JSON body, and the checkpoint would then move past it.
  dataType: 'binary',
  // Holds the checkpoint while a batch is re-run: the trigger throws on outage-like failures, while the
  // circuit is open, or when dead letters cannot be stored, and the host retries the same batch; -1 = forever.
  retry: {
    strategy: 'exponentialBackoff',
    maxRetryCount: config.triggerRetry.maxRetryCount,
    minimumInterval: { seconds: config.triggerRetry.minimumIntervalSeconds },
    maximumInterval: { seconds: config.triggerRetry.maximumIntervalSeconds },
  },
  // The durable client that starts the breaker orchestration when a batch trips the breaker.
  extraInputs: [df.input.durableClient()],
  handler: makeProcessHandler({
    processBatch: runtime.processBatch,
    triggerRetry: config.triggerRetry,
    onTripped: makeOnTripped(config.functionName),
  }),
};
app.eventHub(config.functionName, options);
