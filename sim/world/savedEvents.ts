import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';

/**
 * Where the app's retention guard saves an event that would otherwise expire in the hub: a blob
 * `saved/<partitionId>/<sequenceNumber>.json` in the app's dead-letter container (DEAD_LETTER_CONTAINER),
 * written before the checkpoint moves past it and drained to the sink after approval.
 */
export const SAVED_PREFIX = 'saved/';

/** The name of the saved blob of one event. */
export const savedBlobName = (partitionId: string, sequenceNumber: number) =>
  `${SAVED_PREFIX}${partitionId}/${sequenceNumber}.json`;

/** `partition/sequence` of a saved blob's name; undefined for any other name. */
export function savedKeyOf(blobName: string): string | undefined {
  const match = /^saved\/([^/]+)\/(\d+)\.json$/.exec(blobName);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

/**
 * The events the app saved during one run, seen by listing the saved prefix now and then: a blob counts
 * when it is new since the run started or was rewritten (its ETag changed), so what earlier runs of
 * the same world left there does not. A blob the app drains and deletes stays counted once seen: poll
 * before the drain can start (before an approval) and at the end.
 */
export class SavedEventsWatch {
  private readonly before = new Map<string, string>();
  private readonly seen = new Set<string>();

  private constructor(private readonly container: ContainerClient) {}

  /** Starts watching the world's dead-letter container (app settings `AzureWebJobsStorage`, `DEAD_LETTER_CONTAINER`). */
  static async start(env: Readonly<Record<string, string>>): Promise<SavedEventsWatch> {
    const name = env.DEAD_LETTER_CONTAINER;
    if (!name) throw new Error('SavedEventsWatch: the app settings name no DEAD_LETTER_CONTAINER');
    const container = BlobServiceClient.fromConnectionString(
      env.AzureWebJobsStorage ?? '',
    ).getContainerClient(name);
    const watch = new SavedEventsWatch(container);
    for (const [blob, etag] of await watch.list()) watch.before.set(blob, etag);
    return watch;
  }

  /** Lists the saved prefix once and records what this run saved. */
  async poll(): Promise<void> {
    for (const [blob, etag] of await this.list()) {
      if (this.before.get(blob) === etag) continue;
      const key = savedKeyOf(blob);
      if (key !== undefined) this.seen.add(key);
    }
  }

  /** `partition/sequence` of every event saved during the run so far. */
  get keys(): ReadonlySet<string> {
    return this.seen;
  }

  /** Those of `keys` still saved now: not drained to the sink (and removed) yet. */
  async left(): Promise<Set<string>> {
    const now = new Set([...(await this.list()).keys()].map(savedKeyOf));
    return new Set([...this.seen].filter((key) => now.has(key)));
  }

  private async list(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    try {
      for await (const blob of this.container.listBlobsFlat({ prefix: SAVED_PREFIX }))
        out.set(blob.name, blob.properties.etag);
    } catch (error) {
      // No container yet: nothing was saved (the app creates it with its first dead letter).
      if ((error as { statusCode?: unknown }).statusCode !== 404) throw error;
    }
    return out;
  }
}
