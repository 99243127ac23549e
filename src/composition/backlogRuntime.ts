import { EventHubConsumerClient } from '@azure/event-hubs';
import type { ContainerClient } from '@azure/storage-blob';

import { CHECKPOINT_CONTAINER, checkpointPrefix, readCheckpoints } from '../hub/checkpoints';
import { type HeldBacklog, readHeldBacklog } from '../hub/heldBacklog';
import { type HubEventReader, makeHubEventReader } from '../hub/hubEventReader';
import { type HubReader, makeEventHubReader } from '../hub/hubReader';
import { saveMarginMs } from '../retention/retentionGuard';
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

/** The app's own reads of its hub and of the host's checkpoints (one client per runtime). */
export interface HubParts {
  readonly hub: HubReader;
  /**
   * The retention guard's reads, on a client of their own: one client subscribes to a partition once
   * at a time (reads on it take turns, hub/partitionTurns.ts), and the guard must not wait behind the
   * approval page's reads.
   */
  readonly guard: { readonly hub: HubReader; readonly events: HubEventReader };
  readonly checkpoints: { readonly container: ContainerClient; readonly prefix: string };
  readonly source: { readonly hub: string; readonly checkpoints: string };
}

const parts = new WeakMap<Runtime, HubParts>();

/**
 * The hub reader over the app's own hub connection (the trigger's setting) and the host's checkpoints
 * in AzureWebJobsStorage. The client connects on first use and is kept for the process.
 */
export function hubPartsFor(runtime: Runtime): HubParts {
  const known = parts.get(runtime);
  if (known) return known;
  const { eventHub } = runtime.config;
  const newClient = () =>
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
        );
  let client: EventHubConsumerClient | undefined;
  let guardClient: EventHubConsumerClient | undefined;
  const getClient = () => (client ??= newClient());
  const getGuardClient = () => (guardClient ??= newClient());
  const container = runtime.storage.container(CHECKPOINT_CONTAINER);
  const prefix = checkpointPrefix(namespaceOf(eventHub.connection), eventHub.hubName, eventHub.consumerGroup);
  const made: HubParts = {
    hub: {
      partitions: (signal: AbortSignal) => makeEventHubReader(getClient()).partitions(signal),
      enqueuedTimeOf: (id: string, seq: number, signal: AbortSignal) =>
        makeEventHubReader(getClient()).enqueuedTimeOf(id, seq, signal),
    },
    guard: {
      hub: {
        partitions: (signal: AbortSignal) => makeEventHubReader(getGuardClient()).partitions(signal),
        enqueuedTimeOf: (id: string, seq: number, signal: AbortSignal) =>
          makeEventHubReader(getGuardClient()).enqueuedTimeOf(id, seq, signal),
      },
      events: makeHubEventReader(getGuardClient),
    },
    checkpoints: { container, prefix },
    source: {
      hub: `Event Hubs at ${namespaceOf(eventHub.connection) || 'an unnamed namespace'} (hub "${eventHub.hubName}")`,
      checkpoints: `the checkpoints in container ${CHECKPOINT_CONTAINER}`,
    },
  };
  parts.set(runtime, made);
  return made;
}

/**
 * The held-backlog reader over `hubPartsFor`. Callers that arrive while a read is in flight share it
 * (a read that peeks the oldest event serves one that does not): many page loads at once (operators, a
 * mail scanner opening the link) cost one read of the hub, not a queue of one subscription each per
 * partition (hub/partitionTurns.ts), and none waits behind the others' turns.
 */
export function createHeldBacklogReader(runtime: Runtime): HeldBacklogReader {
  const { hub, checkpoints, source } = hubPartsFor(runtime);
  const inFlight = new Map<boolean, Promise<HeldBacklog>>();
  return (peekOldest) => {
    const shared = inFlight.get(peekOldest) ?? (peekOldest ? undefined : inFlight.get(true));
    if (shared) return shared;
    const read = readOnce(peekOldest).finally(() => inFlight.delete(peekOldest));
    inFlight.set(peekOldest, read);
    return read;
  };

  function readOnce(peekOldest: boolean): Promise<HeldBacklog> {
    return readHeldBacklog(
      {
        hub,
        checkpoints: (signal) => readCheckpoints(checkpoints.container, checkpoints.prefix, signal),
        retentionHours: runtime.hubRetentionMs / 3_600_000,
        ...(runtime.config.eventHub.retentionGuard && {
          saveMarginMs: saveMarginMs(
            runtime.hubRetentionMs,
            runtime.config.eventHub.retentionSaveMarginMinutes,
          ),
        }),
        clock: runtime.clock,
        source,
      },
      peekOldest,
    );
  }
}
