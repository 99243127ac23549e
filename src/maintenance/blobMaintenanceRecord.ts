import type { ContainerClient } from '@azure/storage-blob';

import { boundText } from '../kernel/boundText';
import {
  type EndedMaintenance,
  type Maintenance,
  MAINTENANCE_BY_MAX,
  MAINTENANCE_REASON_MAX,
  type MaintenanceRecord,
} from './maintenance';

/** Far above any real record (a reason, a name, two times); anything larger is not ours. */
const MAX_RECORD_BYTES = 8 * 1024;
const LATEST = 9_999_999_999_999;

/**
 * Maintenance as blobs: `<fn>/current.json` while in force, created only when absent (If-None-Match: *),
 * and one `<fn>/ended/…` per maintenance that ended, named so a listing runs newest first. The storage
 * account outlives restarts and redeploys; a record that does not parse reads as a maintenance in force
 * with that said in its reason, so a damaged record never silently lets the trigger run.
 */
export function blobMaintenanceRecord(container: ContainerClient, functionName: string): MaintenanceRecord {
  let created: Promise<unknown> | undefined;
  const ready = () =>
    (created ??= container.createIfNotExists().catch((e: unknown) => {
      created = undefined;
      throw e;
    }));
  const currentBlob = container.getBlockBlobClient(`${functionName}/current.json`);
  const endedPrefix = `${functionName}/ended/`;
  const upload = (name: string, value: object, conditions?: { ifNoneMatch: string }) => {
    const body = JSON.stringify(value);
    return container.getBlockBlobClient(name).upload(body, Buffer.byteLength(body), {
      blobHTTPHeaders: { blobContentType: 'application/json' },
      ...(conditions ? { conditions } : {}),
    });
  };
  const download = async (name: string) => {
    try {
      const blob = container.getBlockBlobClient(name);
      const props = await blob.getProperties();
      if ((props.contentLength ?? 0) > MAX_RECORD_BYTES)
        return { text: '', etag: props.etag, tooLarge: true as const };
      const buffer = await blob.downloadToBuffer(0, undefined, {
        conditions: { ifMatch: props.etag ?? '*' },
      });
      return { text: buffer.toString('utf8'), etag: props.etag, tooLarge: false as const };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  };
  const readCurrent = async () => {
    await ready();
    const found = await download(currentBlob.name);
    if (found === undefined) return undefined;
    const value = found.tooLarge ? undefined : parseMaintenance(found.text);
    return { etag: found.etag, maintenance: value ?? unreadable(found.tooLarge) };
  };

  return {
    async current() {
      return (await readCurrent())?.maintenance;
    },

    async enter(maintenance) {
      await ready();
      try {
        await upload(currentBlob.name, bounded(maintenance), { ifNoneMatch: '*' });
        return { entered: true };
      } catch (error) {
        if (statusOf(error) !== 409) throw error;
        const now = await readCurrent();
        // Left between the two calls: say so as "in force" anyway; the caller may try again.
        return { entered: false, current: now?.maintenance ?? maintenance };
      }
    },

    async leave(by, at) {
      const found = await readCurrent();
      if (found === undefined) return undefined;
      const ended: EndedMaintenance = {
        ...found.maintenance,
        leftBy: boundText(by, MAINTENANCE_BY_MAX),
        leftAt: at,
      };
      // The audit entry first (named by when it began, so a retried leave rewrites the same one).
      await upload(`${endedPrefix}${String(LATEST - found.maintenance.since).padStart(13, '0')}.json`, ended);
      try {
        await currentBlob.delete({ conditions: { ifMatch: found.etag ?? '*' } });
      } catch (error) {
        const status = statusOf(error);
        // 404: a concurrent leave won; 412: the record changed meanwhile. Either way this leave did not end it.
        if (status === 404 || status === 412) return undefined;
        throw error;
      }
      return ended;
    },

    async history(limit) {
      await ready();
      const out: EndedMaintenance[] = [];
      for await (const item of container.listBlobsFlat({ prefix: endedPrefix })) {
        if (out.length >= limit) break;
        const found = await download(item.name);
        const value = found === undefined || found.tooLarge ? undefined : parseEnded(found.text);
        if (value !== undefined) out.push(value);
      }
      return out;
    },
  };
}

const bounded = (m: Maintenance): Maintenance => ({
  reason: boundText(m.reason, MAINTENANCE_REASON_MAX),
  by: boundText(m.by, MAINTENANCE_BY_MAX),
  since: m.since,
});

const unreadable = (tooLarge: boolean): Maintenance => ({
  reason: `the maintenance record does not read (${tooLarge ? 'too large' : 'not a record'}); leave maintenance to clear it`,
  by: 'unknown',
  since: 0,
});

function fieldsOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseMaintenance(text: string): Maintenance | undefined {
  const f = fieldsOf(text);
  if (f === undefined) return undefined;
  const { reason, by, since } = f;
  if (typeof reason !== 'string' || typeof by !== 'string' || !isTime(since)) return undefined;
  return bounded({ reason, by, since });
}

function parseEnded(text: string): EndedMaintenance | undefined {
  const m = parseMaintenance(text);
  const f = fieldsOf(text);
  if (m === undefined || f === undefined) return undefined;
  const { leftBy, leftAt } = f;
  if (typeof leftBy !== 'string' || !isTime(leftAt)) return undefined;
  return { ...m, leftBy: boundText(leftBy, MAINTENANCE_BY_MAX), leftAt };
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}
