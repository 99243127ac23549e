import { app, type EventHubFunctionOptions } from '@azure/functions';
import * as df from 'durable-functions';

import type { AppConfig } from '../config/appConfig';
import { makeProcessHandler, type ProcessHandlerDeps } from '../processing/processHandler';

export interface ProcessTrigger {
  readonly config: Pick<AppConfig, 'functionName' | 'eventHub' | 'triggerRetry'>;
  readonly handler: ProcessHandlerDeps;
}

/** Registers the Event Hubs trigger: the batch processor behind the host's retry policy. */
export function registerProcessSensorEvents({ config, handler }: ProcessTrigger): void {
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
    handler: makeProcessHandler(handler),
  };
  app.eventHub(config.functionName, options);
}
