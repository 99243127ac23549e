import type { ContainerClient } from '@azure/storage-blob';

import { checkpointPrefix } from '../../src/hub/checkpoints';

/** An event as far as a checkpoint needs it. */
interface CheckpointedEvent {
  readonly sequenceNumber: number;
  readonly offset: string;
}

/**
 * Writes checkpoints the way the Functions host's Event Hubs extension does (BlobCheckpointStoreInternal):
 * an empty blob `<fqdn>/<hub>/<group>/checkpoint/<partition>` (lower-cased) with metadata
 * `sequencenumber` and `offset` of the last processed event. For the host model's `onCheckpoint`.
 */
export function hostCheckpointWriter(
  container: ContainerClient,
  hub: { fullyQualifiedNamespace: string; hubName: string; consumerGroup: string },
) {
  const prefix = checkpointPrefix(hub.fullyQualifiedNamespace, hub.hubName, hub.consumerGroup);
  let ready: Promise<unknown> | undefined;
  return async (partitionId: string, last: CheckpointedEvent): Promise<void> => {
    await (ready ??= container.createIfNotExists());
    await container.getBlockBlobClient(`${prefix}${partitionId}`).upload('', 0, {
      metadata: {
        sequencenumber: String(last.sequenceNumber),
        offset: last.offset,
        clientidentifier: 'host-model',
      },
    });
  };
}
