import type { ContainerClient } from '@azure/storage-blob';

/** A held lease; release it when done (it also ends by itself after its duration). */
export interface PartitionLease {
  release(): Promise<void>;
}

/** Takes a partition's lease, or undefined when another instance holds it now. */
export type AcquirePartitionLease = (partitionId: string) => Promise<PartitionLease | undefined>;

/** Blob leases last 15 to 60 s; a save run is bounded below this, so a crashed holder frees it soon. */
export const LEASE_SECONDS = 60;

/**
 * One lock per partition, as a blob lease on `locks/<purpose>/<partitionId>`: two instances never save
 * the same partition at once; a holder that dies frees it when the lease runs out.
 */
export function blobPartitionLease(container: ContainerClient, purpose: string): AcquirePartitionLease {
  return async (partitionId) => {
    const blob = container.getBlockBlobClient(`locks/${purpose}/${partitionId}`);
    await container.createIfNotExists();
    try {
      await blob.upload('', 0, { conditions: { ifNoneMatch: '*' } });
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      // 409: it exists (maybe leased); 412: another instance created it just now.
      if (status !== 409 && status !== 412) throw error;
    }
    const leases = blob.getBlobLeaseClient();
    try {
      await leases.acquireLease(LEASE_SECONDS);
    } catch (error) {
      if ((error as { statusCode?: unknown }).statusCode === 409) return undefined;
      throw error;
    }
    return {
      release: async () => {
        await leases.releaseLease().catch(() => undefined);
      },
    };
  };
}
