import type { ContainerClient } from '@azure/storage-blob';

import { MAX_STORED_NOTICE_BYTES, type NoticeEntry, type NoticeLedger } from './noticeLedger';

/** The container of the notice ledger, in the app's own storage account. */
export const NOTICE_LEDGER_CONTAINER = 'breakwater-notices';

/**
 * The notice ledger as one small blob per notice. `begin` creates it only when absent (If-None-Match: *),
 * so the first attempt's time and rendered message survive every re-run.
 */
export function blobNoticeLedger(container: ContainerClient): NoticeLedger {
  let created: Promise<unknown> | undefined;
  const ready = () =>
    (created ??= container.createIfNotExists().catch((e: unknown) => {
      created = undefined;
      throw e;
    }));
  const blob = (key: string) => container.getBlockBlobClient(key);
  const read = async (key: string): Promise<NoticeEntry | undefined> => {
    await ready();
    try {
      return parseEntry((await blob(key).downloadToBuffer()).toString('utf8'));
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  };
  const write = (key: string, entry: NoticeEntry, conditions?: { ifNoneMatch: string }) => {
    const body = JSON.stringify(entry);
    return blob(key).upload(body, Buffer.byteLength(body), {
      blobHTTPHeaders: { blobContentType: 'application/json' },
      ...(conditions ? { conditions } : {}),
    });
  };
  return {
    async begin(key, at, message) {
      await ready();
      const first: NoticeEntry =
        Buffer.byteLength(message) <= MAX_STORED_NOTICE_BYTES
          ? { firstAttemptAt: at, message }
          : { firstAttemptAt: at };
      try {
        await write(key, first, { ifNoneMatch: '*' });
        return first;
      } catch (error) {
        if (statusOf(error) !== 409) throw error;
        return (await read(key)) ?? first;
      }
    },
    async markSent(key, entry, at) {
      await ready();
      // Once sent, nothing sends it again: the stored message (it carries the approval link, a
      // credential until it expires) is dropped, so the ledger keeps it only while a send is open.
      await write(key, { firstAttemptAt: entry.firstAttemptAt, sentAt: at });
    },
  };
}

function parseEntry(text: string): NoticeEntry | undefined {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) return undefined;
  const { firstAttemptAt, sentAt, message } = value as Record<string, unknown>;
  if (typeof firstAttemptAt !== 'number') return undefined;
  return {
    firstAttemptAt,
    ...(typeof sentAt === 'number' ? { sentAt } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}
