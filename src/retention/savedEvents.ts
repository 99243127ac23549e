import type { ContainerClient } from '@azure/storage-blob';
import { z } from 'zod';

import type { ReceivedEvent } from '../hub/receivedEvent';

/**
 * Events the retention guard saved before the hub's retention dropped them: one blob per event,
 * `saved/<partitionId>/<sequenceNumber>.json`, in the dead-letter container. The name is the event's
 * identity and the content depends only on the event, so a re-run after a partial save writes the same
 * blobs again (duplicates, never losses). A blob is deleted once its event reached the sink.
 */
export const SAVED_PREFIX = 'saved/';

export const savedBlobName = (partitionId: string, sequenceNumber: number) =>
  `${SAVED_PREFIX}${partitionId}/${sequenceNumber}.json`;

export interface SavedEvents {
  /** Saves events of one partition (idempotent per event); resolves only when every blob is written. */
  save(events: readonly ReceivedEvent[]): Promise<void>;
  /** Partitions with saved events still to drain. */
  partitions(): Promise<string[]>;
  /** Sequence numbers saved for a partition, ascending. */
  sequenceNumbers(partitionId: string): Promise<number[]>;
  /**
   * These saved events of a partition (from `sequenceNumbers`), in the order given; one removed meanwhile
   * (another drain) is left out. A blob that is not a saved event (edited, truncated, renamed) comes back
   * as an event whose body is the blob's bytes: the processing path dead-letters it as poison, bytes and
   * all. `intact`: the sequence numbers whose blob is the guard's copy of that very event.
   */
  read(partitionId: string, sequenceNumbers: readonly number[]): Promise<SavedRead>;
  /** Removes saved events after they reached the sink (a missing blob is already removed). */
  remove(partitionId: string, sequenceNumbers: readonly number[]): Promise<void>;
  /** Held drain runs of the batch that starts at this saved event (its blob's metadata); 0 when none. */
  heldRuns(partitionId: string, sequenceNumber: number): Promise<number>;
  /** Records `runs` held drain runs on this saved event's blob (gone: nothing to record). */
  recordHeldRun(partitionId: string, sequenceNumber: number, runs: number): Promise<void>;
  /** How many are saved in all (for the status, the page and the heartbeat). */
  count(): Promise<{ readonly total: number; readonly byPartition: Readonly<Record<string, number>> }>;
}

/** Saved events as read back: the events, and which of them are intact copies of the event they name. */
export interface SavedRead {
  readonly events: ReceivedEvent[];
  readonly intact: readonly number[];
}

/**
 * The largest blob that can be a saved event: the largest event Event Hubs takes (1 MB, 20 MB on a
 * Dedicated cluster) as base64 in the JSON, with its properties. The guard never writes a larger one.
 */
export const MAX_SAVED_BLOB_BYTES = 32 * 1024 * 1024;

const PARALLEL = 16;
/** Blob metadata: how many drain runs held the batch that starts at this saved event. */
const HELD_RUNS = 'drainheldruns';

/**
 * The event a blob name stands for, or undefined for a name this store does not write (`007.json`, a
 * sub-folder, another extension): such a blob is not a saved event, and reading it back by its number
 * would miss it for good.
 */
function savedNameParts(name: string): { partitionId: string; sequenceNumber: number } | undefined {
  const m = /^saved\/([^/]+)\/(\d+)\.json$/.exec(name);
  if (m?.[1] === undefined || m[2] === undefined) return undefined;
  const sequenceNumber = Number(m[2]);
  return name === savedBlobName(m[1], sequenceNumber) ? { partitionId: m[1], sequenceNumber } : undefined;
}

/** The blob's JSON: everything the processing path needs to apply the event as if the hub delivered it. */
const savedEventJson = z.object({
  partitionId: z.string(),
  sequenceNumber: z.number().int().nonnegative(),
  offset: z.string().optional(),
  enqueuedTimeUtc: z.string().optional(),
  properties: z.record(z.string(), z.unknown()),
  systemProperties: z.record(z.string(), z.unknown()),
  /** The body, byte for byte, base64. */
  body: z.base64(),
});
type SavedEventJson = z.infer<typeof savedEventJson>;

/** A saved blob as the event it holds; one that is not (or names another event) as its raw bytes. */
function fromBlob(
  partitionId: string,
  sequenceNumber: number,
  buffer: Buffer,
): { readonly event: Omit<ReceivedEvent, 'index'>; readonly intact: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(buffer.toString('utf8'));
  } catch {
    json = undefined;
  }
  const parsed = savedEventJson.safeParse(json);
  if (
    parsed.success &&
    parsed.data.partitionId === partitionId &&
    parsed.data.sequenceNumber === sequenceNumber
  ) {
    const e = parsed.data;
    const event = {
      body: Buffer.from(e.body, 'base64'),
      partitionId,
      sequenceNumber,
      offset: e.offset,
      enqueuedTimeUtc: e.enqueuedTimeUtc,
      properties: e.properties,
      systemProperties: e.systemProperties,
    };
    return { event, intact: true };
  }
  // Not decodable as a reading either: the batch processor dead-letters it as poison, bytes kept.
  const event = {
    body: buffer,
    partitionId,
    sequenceNumber,
    offset: undefined,
    enqueuedTimeUtc: undefined,
    properties: {},
    systemProperties: {},
  };
  return { event, intact: false };
}

/**
 * A saved blob's bytes, or undefined when it is gone or larger than a saved event can be (replaced since
 * it was listed): only the first bytes past the bound are ever fetched.
 */
async function downloadBounded(container: ContainerClient, name: string): Promise<Buffer | undefined> {
  let response;
  try {
    response = await container.getBlockBlobClient(name).download(0, MAX_SAVED_BLOB_BYTES + 1);
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    // 416: the blob is empty (a range of an empty blob is not satisfiable); its bytes are none.
    if (status === 416) return Buffer.alloc(0);
    if (status === 404) return undefined;
    throw error;
  }
  const stream = response.readableStreamBody;
  if ((response.contentLength ?? 0) > MAX_SAVED_BLOB_BYTES) {
    stream?.destroy();
    return undefined;
  }
  if (stream === undefined) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function makeSavedEvents(container: ContainerClient): SavedEvents {
  let ready: Promise<unknown> | undefined;
  const ensureReady = () =>
    (ready ??= container.createIfNotExists().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));

  // Saved events only: a blob larger than any saved event can be is not one (the guard never wrote it),
  // so it is left in place unread, as a name the guard does not write is.
  const list = async (prefix: string): Promise<string[]> => {
    const names: string[] = [];
    try {
      for await (const blob of container.listBlobsFlat({ prefix }))
        if ((blob.properties.contentLength ?? 0) <= MAX_SAVED_BLOB_BYTES) names.push(blob.name);
    } catch (error) {
      if ((error as { statusCode?: unknown }).statusCode === 404) return [];
      throw error;
    }
    return names;
  };
  const sequenceNumbers = async (partitionId: string) =>
    (await list(`${SAVED_PREFIX}${partitionId}/`))
      .flatMap((name) => {
        const saved = savedNameParts(name);
        return saved?.partitionId === partitionId ? [saved.sequenceNumber] : [];
      })
      .sort((a, b) => a - b);

  const inBatches = async <T>(items: readonly T[], run: (item: T) => Promise<unknown>) => {
    for (let i = 0; i < items.length; i += PARALLEL) {
      const results = await Promise.allSettled(items.slice(i, i + PARALLEL).map(run));
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
    }
  };

  return {
    async save(events) {
      await ensureReady();
      await inBatches(events, async (event) => {
        if (event.partitionId === undefined || event.sequenceNumber === undefined)
          throw new Error('an event without partition and sequence number cannot be saved by name');
        const json: SavedEventJson = {
          partitionId: event.partitionId,
          sequenceNumber: event.sequenceNumber,
          offset: event.offset,
          enqueuedTimeUtc: event.enqueuedTimeUtc,
          properties: event.properties,
          systemProperties: event.systemProperties,
          body: event.body.toString('base64'),
        };
        const data = Buffer.from(JSON.stringify(json));
        await container
          .getBlockBlobClient(savedBlobName(event.partitionId, event.sequenceNumber))
          .uploadData(data, { blobHTTPHeaders: { blobContentType: 'application/json' } });
      });
    },

    async partitions() {
      const ids = new Set<string>();
      for (const name of await list(SAVED_PREFIX)) {
        const id = savedNameParts(name)?.partitionId;
        if (id !== undefined) ids.add(id);
      }
      return [...ids].sort((a, b) => Number(a) - Number(b));
    },

    sequenceNumbers,

    async read(partitionId, seqs) {
      const found = new Array<ReturnType<typeof fromBlob> | undefined>(seqs.length);
      await inBatches(
        seqs.map((seq, index) => ({ seq, index })),
        async ({ seq, index }) => {
          const buffer = await downloadBounded(container, savedBlobName(partitionId, seq));
          if (buffer !== undefined) found[index] = fromBlob(partitionId, seq, buffer);
        },
      );
      const read = found.filter((e) => e !== undefined);
      return {
        events: read.map(({ event }, index) => ({ ...event, index })),
        intact: read.flatMap(({ event, intact }) =>
          intact && event.sequenceNumber !== undefined ? [event.sequenceNumber] : [],
        ),
      };
    },

    async remove(partitionId, seqs) {
      await inBatches(seqs, (seq) =>
        container.getBlockBlobClient(savedBlobName(partitionId, seq)).deleteIfExists(),
      );
    },

    async heldRuns(partitionId, seq) {
      try {
        const { metadata } = await container
          .getBlockBlobClient(savedBlobName(partitionId, seq))
          .getProperties();
        const runs = Number(metadata?.[HELD_RUNS] ?? 0);
        return Number.isSafeInteger(runs) && runs > 0 ? runs : 0;
      } catch (error) {
        if ((error as { statusCode?: unknown }).statusCode === 404) return 0;
        throw error;
      }
    },

    async recordHeldRun(partitionId, seq, runs) {
      try {
        await container
          .getBlockBlobClient(savedBlobName(partitionId, seq))
          .setMetadata({ [HELD_RUNS]: String(runs) });
      } catch (error) {
        if ((error as { statusCode?: unknown }).statusCode !== 404) throw error;
      }
    },

    async count() {
      const byPartition: Record<string, number> = {};
      let total = 0;
      for (const name of await list(SAVED_PREFIX)) {
        const id = savedNameParts(name)?.partitionId;
        if (id === undefined) continue;
        byPartition[id] = (byPartition[id] ?? 0) + 1;
        total++;
      }
      return { total, byPartition };
    },
  };
}
