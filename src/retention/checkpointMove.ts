import type { ContainerClient } from '@azure/storage-blob';

import type { Checkpoint } from '../hub/checkpoints';
import { CheckpointMovedError } from './errors';

/** One partition's checkpoint blob as read, with the ETag a move must match. */
export interface CheckpointBlob extends Checkpoint {
  /** Undefined when no checkpoint was written yet (the host then starts from the beginning). */
  readonly etag: string | undefined;
  /** Metadata the host wrote besides the position (e.g. `clientidentifier`), kept on a move. */
  readonly otherMetadata: Readonly<Record<string, string>>;
}

const statusOf = (error: unknown) => (error as { statusCode?: unknown }).statusCode;

/** Reads one partition's checkpoint blob (the host's layout, `checkpoints.ts`) with its ETag. */
export async function readCheckpointBlob(
  container: ContainerClient,
  prefix: string,
  partitionId: string,
  abortSignal?: AbortSignal,
): Promise<CheckpointBlob> {
  try {
    const props = await container
      .getBlockBlobClient(`${prefix}${partitionId}`)
      .getProperties(abortSignal ? { abortSignal } : {});
    const { sequencenumber: raw, offset, ...otherMetadata } = props.metadata ?? {};
    return {
      sequenceNumber: raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined,
      offset: offset || undefined,
      etag: props.etag,
      otherMetadata,
    };
  } catch (error) {
    if (statusOf(error) === 404)
      return { sequenceNumber: undefined, offset: undefined, etag: undefined, otherMetadata: {} };
    throw error;
  }
}

/**
 * Moves the checkpoint to `to` (the last event saved: the host resumes after it), only if the blob is
 * still the one read (If-Match its ETag; If-None-Match * when there was none). A concurrent write by
 * the host or another instance gives CheckpointMovedError and changes nothing.
 */
export async function moveCheckpoint(
  container: ContainerClient,
  prefix: string,
  partitionId: string,
  read: CheckpointBlob,
  to: { readonly sequenceNumber: number; readonly offset: string },
  abortSignal?: AbortSignal,
): Promise<void> {
  try {
    await container.createIfNotExists();
    await container.getBlockBlobClient(`${prefix}${partitionId}`).upload('', 0, {
      metadata: { ...read.otherMetadata, sequencenumber: String(to.sequenceNumber), offset: to.offset },
      conditions: read.etag === undefined ? { ifNoneMatch: '*' } : { ifMatch: read.etag },
      ...(abortSignal ? { abortSignal } : {}),
    });
  } catch (error) {
    const status = statusOf(error);
    if (status === 412 || status === 409)
      throw new CheckpointMovedError(
        `the checkpoint of partition ${partitionId} changed since it was read (HTTP ${String(status)})`,
        { cause: error },
      );
    throw error;
  }
}
