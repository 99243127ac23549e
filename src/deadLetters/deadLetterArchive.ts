import type { ContainerClient } from '@azure/storage-blob';
import { RestError } from '@azure/storage-blob';

import { parseDeadLetterBlobName } from './blobQueueDeadLetterStore';
import type { DeadLetterMessage } from './deadLetterMessage';

/** A dead letter still waiting for redrive, as its body blob tells it. */
export interface PendingDeadLetter {
  readonly blobName: string;
  readonly partitionId: string;
  readonly sequenceNumber: number;
  /** The reason the store wrote in the body blob's metadata; undefined when it has none. */
  readonly reason?: string;
}

/** The claim-check side of dead letters, as the redrive needs it (port). */
export interface DeadLetterArchive {
  /** The event body, byte for byte; undefined when the blob is gone. */
  readBody(blobName: string): Promise<Buffer | undefined>;
  /** Keeps a dead letter that can never be redriven: its message saved beside the body, for people. */
  park(message: DeadLetterMessage, why: string, at: number): Promise<string>;
  /** Removes the body (and properties) blobs of a redriven dead letter. */
  remove(letter: Pick<DeadLetterMessage, 'blobName' | 'propertiesBlobName'>): Promise<void>;
  /**
   * Dead letters of the same partition with a lower sequence number whose bodies are still there and
   * that are not parked, oldest first, at most `limit` (+1, so the caller knows there are more).
   */
  pendingBefore(message: DeadLetterMessage, limit: number): Promise<readonly PendingDeadLetter[]>;
}

/** Suffix of the record written beside a body blob when its dead letter is parked. */
export const PARKED_SUFFIX = '.parked.json';

export function blobDeadLetterArchive(container: ContainerClient): DeadLetterArchive {
  return {
    async readBody(blobName) {
      try {
        return await container.getBlobClient(blobName).downloadToBuffer();
      } catch (error) {
        if (error instanceof RestError && error.statusCode === 404) return undefined;
        throw error;
      }
    },
    async park(message, why, at) {
      const name = `${message.blobName}${PARKED_SUFFIX}`;
      const record = JSON.stringify({ ...message, parkedAt: new Date(at).toISOString(), parkedBecause: why });
      await container.getBlockBlobClient(name).uploadData(Buffer.from(record), {
        blobHTTPHeaders: { blobContentType: 'application/json' },
      });
      return name;
    },
    async remove(letter) {
      const names = [letter.blobName, ...(letter.propertiesBlobName ? [letter.propertiesBlobName] : [])];
      await Promise.all(names.map((n) => container.getBlobClient(n).deleteIfExists()));
    },
    async pendingBefore(message, limit) {
      const own = parseDeadLetterBlobName(message.blobName);
      if (own === undefined || message.partitionId === null) return [];
      const bodies: number[] = [];
      const reasons = new Map<number, string>();
      const parked = new Set<number>();
      // Names sort by sequence number (zero-padded), so the listing comes oldest first.
      for await (const blob of container.listBlobsFlat({ prefix: own.folder, includeMetadata: true })) {
        const parkedOf = blob.name.endsWith(PARKED_SUFFIX)
          ? parseDeadLetterBlobName(blob.name.slice(0, -PARKED_SUFFIX.length))
          : undefined;
        if (parkedOf) parked.add(parkedOf.sequenceNumber);
        const body = parseDeadLetterBlobName(blob.name);
        if (body === undefined) continue;
        if (body.sequenceNumber >= own.sequenceNumber) break;
        bodies.push(body.sequenceNumber);
        const reason = blob.metadata?.reason;
        if (reason !== undefined) reasons.set(body.sequenceNumber, reason);
      }
      const partitionId = message.partitionId;
      return bodies
        .filter((n) => !parked.has(n))
        .slice(0, limit + 1)
        .map((n) => ({
          blobName: `${own.folder}${String(n).padStart(16, '0')}`,
          partitionId,
          sequenceNumber: n,
          ...(reasons.has(n) ? { reason: reasons.get(n) } : {}),
        }));
    },
  };
}
