import { randomUUID } from 'node:crypto';
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';

import { boundText } from '../kernel/boundText';
import type { DeadLetter, DeadLetterStore } from './deadLetter';
import type { DeadLetterMessage } from './deadLetterMessage';

/** Queue messages are at most 64 KiB and the Functions queue trigger expects base64 (4/3 larger). */
const MAX_MESSAGE_JSON_BYTES = 45 * 1024;
const PARALLEL_WRITES = 16;

/**
 * Claim check: the body, byte for byte, in a blob; a queue message with the metadata. Blob names are
 * derived from partition and sequence number, so a re-run batch overwrites the same blob.
 */
export function makeBlobQueueDeadLetterStore(
  container: ContainerClient,
  queue: QueueClient,
): DeadLetterStore {
  let ready: Promise<unknown> | undefined;
  const ensureReady = () =>
    (ready ??= Promise.all([container.createIfNotExists(), queue.createIfNotExists()]).catch(
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    ));

  const writeOne = async ({ letter, blobName }: { letter: DeadLetter; blobName: string }) => {
    await container.getBlockBlobClient(blobName).uploadData(letter.event.body, {
      blobHTTPHeaders: { blobContentType: contentTypeOf(letter) },
      metadata: { reason: letter.reason, attempts: String(letter.attempts) },
    });
    let message: DeadLetterMessage = toMessage(letter, blobName, letter.event.properties);
    if (Buffer.byteLength(JSON.stringify(message)) > MAX_MESSAGE_JSON_BYTES) {
      const propertiesBlobName = `${blobName}${PROPERTIES_SUFFIX}`;
      await container
        .getBlockBlobClient(propertiesBlobName)
        .uploadData(Buffer.from(JSON.stringify(letter.event.properties)), {
          blobHTTPHeaders: { blobContentType: 'application/json' },
        });
      message = { ...toMessage(letter, blobName, undefined), propertiesBlobName };
    }
    // Never expires: the default time-to-live (7 days) would silently drop a dead letter nobody redrove.
    await queue.sendMessage(Buffer.from(JSON.stringify(message)).toString('base64'), {
      messageTimeToLive: -1,
    });
  };

  return {
    async write(letters) {
      await ensureReady();
      const named = withBlobNames(letters);
      for (let i = 0; i < named.length; i += PARALLEL_WRITES) {
        const results = await Promise.allSettled(named.slice(i, i + PARALLEL_WRITES).map(writeOne));
        const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failure) throw failure.reason;
      }
    },
  };
}

/**
 * Each letter's blob name. Two events of one batch with the same partition and sequence number (faulty
 * metadata) must not overwrite each other's body: the later ones get their batch position as a suffix,
 * which a re-run of the same batch repeats, so re-runs still overwrite rather than add.
 */
function withBlobNames(letters: readonly DeadLetter[]): { letter: DeadLetter; blobName: string }[] {
  const used = new Set<string>();
  return letters.map((letter) => {
    let blobName = deadLetterBlobName(letter);
    if (used.has(blobName)) blobName = `${blobName}${DUPLICATE_MARK}${letter.event.index}`;
    used.add(blobName);
    return { letter, blobName };
  });
}

/** The body blob of the event at this partition and sequence number (the redrive checks names against it). */
export function canonicalBlobName(functionName: string, partitionId: string, sequenceNumber: number): string {
  return `${functionName}/p${partitionId}/${String(sequenceNumber).padStart(16, '0')}`;
}

/** Prefix of the blobs of dead letters that came without partition and sequence number. */
export const unknownBlobPrefix = (functionName: string) => `${functionName}/unknown/`;

/** Separates a duplicate's batch position from the canonical blob name. */
export const DUPLICATE_MARK = '.dup';

/** Suffix of the blob that holds properties too large for the queue message. */
export const PROPERTIES_SUFFIX = '.properties.json';

export function deadLetterBlobName(letter: DeadLetter): string {
  const { partitionId, sequenceNumber } = letter.event;
  if (partitionId !== undefined && sequenceNumber !== undefined) {
    return canonicalBlobName(letter.functionName, partitionId, sequenceNumber);
  }
  // Without metadata there is no stable identity: a unique name, so nothing is overwritten.
  return `${unknownBlobPrefix(letter.functionName)}${letter.deadLetteredAt}-${randomUUID()}`;
}

/** A dead letter's body blob name, read back: its partition's folder and its sequence number. */
export function parseDeadLetterBlobName(
  name: string,
): { readonly folder: string; readonly sequenceNumber: number } | undefined {
  const match = /^(.+\/p[^/]+\/)(\d{16})$/.exec(name);
  return match?.[1] === undefined || match[2] === undefined
    ? undefined
    : { folder: match[1], sequenceNumber: Number(match[2]) };
}

function toMessage(
  letter: DeadLetter,
  blobName: string,
  properties: Readonly<Record<string, unknown>> | undefined,
): DeadLetterMessage {
  const e = letter.event;
  return {
    version: 1,
    functionName: letter.functionName,
    blobName,
    bodyBytes: e.body.length,
    partitionId: e.partitionId ?? null,
    offset: e.offset ?? null,
    sequenceNumber: e.sequenceNumber ?? null,
    enqueuedTimeUtc: e.enqueuedTimeUtc ?? null,
    ...(properties === undefined ? {} : { properties }),
    reason: letter.reason,
    // Bounded here too: whatever built the error, the message must fit the queue's 64 KiB.
    error: {
      name: boundText(letter.error.name, 100),
      code: letter.error.code === undefined ? undefined : boundText(letter.error.code, 100),
      message: boundText(letter.error.message, 1_000),
    },
    attempts: letter.attempts,
    deadLetteredAt: letter.deadLetteredAt,
    invocationId: letter.invocationId,
  };
}

/** A media type and its parameters, printable ASCII only: the value goes into an HTTP header. */
const CONTENT_TYPE = /^[\w.+-]{1,64}\/[\w.+-]{1,64}(\s*;[\x20-\x7e]{0,120})?$/;

/** The producer's content type when it is a plausible media type; anything else could fail the upload. */
function contentTypeOf(letter: DeadLetter): string {
  const value = letter.event.systemProperties.contentType ?? letter.event.properties.contentType;
  return typeof value === 'string' && CONTENT_TYPE.test(value) ? value : 'application/octet-stream';
}
