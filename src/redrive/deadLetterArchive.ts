import { RestError } from '@azure/storage-blob';
import type { ContainerClient } from '@azure/storage-blob';

import type { DeadLetterMessage } from '../processing/blobQueueDeadLetterStore';

/** The claim-check side of dead letters, as the redrive needs it (port). */
export interface DeadLetterArchive {
  /** The event body, byte for byte; undefined when the blob is gone. */
  readBody(blobName: string): Promise<Buffer | undefined>;
  /** Keeps a dead letter that can never be redriven: its message saved beside the body, for people. */
  park(message: DeadLetterMessage, why: string, at: number): Promise<string>;
  /** Removes the body (and properties) blobs of a redriven dead letter. */
  remove(message: DeadLetterMessage): Promise<void>;
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
    async remove(message) {
      const names = [message.blobName, ...(message.propertiesBlobName ? [message.propertiesBlobName] : [])];
      await Promise.all(names.map((n) => container.getBlobClient(n).deleteIfExists()));
    },
  };
}
