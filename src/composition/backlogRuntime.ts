import { EventHubConsumerClient } from '@azure/event-hubs';

import { CHECKPOINT_CONTAINER, checkpointPrefix, readCheckpoints } from '../hub/checkpoints';
import { type HeldBacklog, readHeldBacklog } from '../hub/heldBacklog';
import { makeEventHubReader } from '../hub/hubReader';
import { namespaceOf } from './eventHubNamespace';
import { lazyCredential } from './notifyAndControl';
import type { Runtime } from './runtime';

/** Reads the held backlog; `peekOldest` also reads the oldest held event's age (while OPEN). */
export type HeldBacklogReader = (peekOldest: boolean) => Promise<HeldBacklog>;

/** Page reads fail fast rather than hold a page for the client's default minute-long retries. */
const READ_RETRY = { maxRetries: 1, retryDelayInMs: 500, timeoutInMs: 4_000 };

const readers = new WeakMap<Runtime, HeldBacklogReader>();

/** One reader (one hub client) per runtime, shared by the pages, the status API and the emails. */
export function heldBacklogReaderFor(runtime: Runtime): HeldBacklogReader {
  let reader = readers.get(runtime);
  if (reader === undefined) {
    reader = createHeldBacklogReader(runtime);
    readers.set(runtime, reader);
  }
  return reader;
}

/**
 * The held-backlog reader over the app's own hub connection (the trigger's setting) and the host's
 * checkpoints in AzureWebJobsStorage. The client connects on first use and is kept for the process.
 */
export function createHeldBacklogReader(runtime: Runtime): HeldBacklogReader {
  const { eventHub } = runtime.config;
  let client: EventHubConsumerClient | undefined;
  const getClient = () =>
    (client ??=
      eventHub.connection.kind === 'connectionString'
        ? new EventHubConsumerClient(
            eventHub.consumerGroup,
            eventHub.connection.connectionString,
            eventHub.hubName,
            {
              retryOptions: READ_RETRY,
            },
          )
        : new EventHubConsumerClient(
            eventHub.consumerGroup,
            eventHub.connection.fullyQualifiedNamespace,
            eventHub.hubName,
            lazyCredential(runtime.getCredential),
            { retryOptions: READ_RETRY },
          ));
  const container = runtime.storage.container(CHECKPOINT_CONTAINER);
  const prefix = checkpointPrefix(namespaceOf(eventHub.connection), eventHub.hubName, eventHub.consumerGroup);
  const hub = {
    partitions: (signal: AbortSignal) => makeEventHubReader(getClient()).partitions(signal),
    enqueuedTimeOf: (id: string, seq: number, signal: AbortSignal) =>
      makeEventHubReader(getClient()).enqueuedTimeOf(id, seq, signal),
  };
  return (peekOldest) =>
    readHeldBacklog(
      {
        hub,
        checkpoints: (signal) => readCheckpoints(container, prefix, signal),
        retentionHours: eventHub.retentionHours,
        clock: runtime.clock,
        source: {
          hub: `Event Hubs at ${namespaceOf(eventHub.connection) || 'an unnamed namespace'} (hub "${eventHub.hubName}")`,
          checkpoints: `the checkpoints in container ${CHECKPOINT_CONTAINER}`,
        },
      },
      peekOldest,
    );
}
