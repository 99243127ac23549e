import type { ContainerClient } from '@azure/storage-blob';

/**
 * Where the Functions host keeps Event Hubs checkpoints: blob container `azure-webjobs-eventhub`
 * (EventHubOptions.CheckpointContainer of Microsoft.Azure.WebJobs.Extensions.EventHubs), one empty blob
 * per partition named `<namespace fqdn>/<hub>/<consumer group>/checkpoint/<partition>`, the first three
 * lower-cased, with metadata `sequencenumber` (the last event processed; reading resumes after it) and
 * `offset` (BlobCheckpointStoreInternal in azure-sdk-for-net, sdk/eventhub/Azure.Messaging.EventHubs.Shared).
 * Checkpoints of the legacy layout (extension 4.x, `<fqdn>/<hub>/<group>/<partition>` with JSON
 * content) are not read.
 */
export const CHECKPOINT_CONTAINER = 'azure-webjobs-eventhub';

export function checkpointPrefix(
  fullyQualifiedNamespace: string,
  hubName: string,
  consumerGroup: string,
): string {
  return `${fullyQualifiedNamespace}/${hubName}/${consumerGroup}/checkpoint/`.toLowerCase();
}

export interface Checkpoint {
  /** The last event processed; undefined when the blob carries no usable number. */
  readonly sequenceNumber: number | undefined;
  readonly offset: string | undefined;
}

/** Reads every partition's checkpoint under the prefix; a missing container means none was written yet. */
export async function readCheckpoints(
  container: ContainerClient,
  prefix: string,
  abortSignal: AbortSignal,
): Promise<Map<string, Checkpoint>> {
  const out = new Map<string, Checkpoint>();
  try {
    for await (const blob of container.listBlobsFlat({ prefix, includeMetadata: true, abortSignal })) {
      const partitionId = blob.name.slice(prefix.length);
      const raw = blob.metadata?.sequencenumber;
      const sequenceNumber = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
      out.set(partitionId, { sequenceNumber, offset: blob.metadata?.offset || undefined });
    }
  } catch (error) {
    if ((error as { statusCode?: unknown }).statusCode === 404) return out;
    throw error;
  }
  return out;
}
