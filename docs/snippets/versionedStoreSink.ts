/**
 * The example sink of docs/your-own-downstream.md: a downstream with conditional writes (ETag / If-Match),
 * the shape most databases and many APIs offer. Compiled by `npm run typecheck` and run against the sink
 * contract by test/docs/yourOwnDownstream.test.ts, so the doc cannot drift from working code.
 */
import type { ActivitySink } from '../../src/sinks/activitySink';
import { TransientSinkError } from '../../src/sinks/errors';
import { readingVersion } from '../../src/sinks/homeActivityTableSink';

// #region store-port
/** Your downstream's client, reduced to what the sink needs. */
export interface VersionedStore {
  /** The record of `key` with its ETag, or undefined. Throws errors that carry `statusCode` or a network `code`. */
  get(key: string, signal: AbortSignal): Promise<{ record: StoredReading; etag: string } | undefined>;
  /** Writes only if the record still has `ifMatch` (undefined: only if absent); false when it changed. */
  put(key: string, record: StoredReading, ifMatch: string | undefined, signal: AbortSignal): Promise<boolean>;
  /** A cheap read that proves the store answers. */
  ping(signal: AbortSignal): Promise<void>;
}

export interface StoredReading {
  readonly state: string;
  readonly occurredAt: string;
  /** What "newer" means: reading time, then partition and sequence number. */
  readonly version: string;
  readonly partitionId: string;
  readonly sequenceNumber: number;
}
// #endregion store-port

// #region example-sink
export function makeVersionedStoreSink(store: VersionedStore): ActivitySink {
  return {
    async write(reading, event, signal) {
      const key = `${reading.homeId}/${reading.sensorId}`;
      const record: StoredReading = {
        state: reading.state,
        occurredAt: reading.occurredAt,
        version: readingVersion(reading, event),
        partitionId: event.partitionId ?? '',
        sequenceNumber: event.sequenceNumber ?? -1,
      };
      // Compare-and-set: read, keep the newer, write only if nobody wrote in between; else read again.
      for (let round = 0; round < 5; round++) {
        const current = await store.get(key, signal);
        if (current && current.record.version >= record.version) return 'stale'; // same or newer: done
        if (await store.put(key, record, current?.etag, signal)) return 'applied';
      }
      // Outage-like: the per-event retry policy tries again later.
      throw new TransientSinkError(`${key} kept changing under concurrent writers`);
    },
    probe: (signal) => store.ping(signal),
    orderingKey: (reading) => `${reading.homeId}/${reading.sensorId}`,
  };
}
// #endregion example-sink

/** An in-memory VersionedStore for the contract test; `reachable: false` fails like a refused connection. */
export function memoryVersionedStore(reachable = true): VersionedStore & {
  peek(key: string): { record: StoredReading; etag: string } | undefined;
} {
  const rows = new Map<string, { record: StoredReading; etag: string }>();
  let etag = 0;
  const refuse = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const guard = (signal: AbortSignal) => {
    signal.throwIfAborted();
    if (!reachable) throw refuse();
  };
  return {
    get: (key, signal) =>
      Promise.resolve().then(() => {
        guard(signal);
        return rows.get(key);
      }),
    put: (key, record, ifMatch, signal) =>
      Promise.resolve().then(() => {
        guard(signal);
        if (rows.get(key)?.etag !== ifMatch) return false;
        rows.set(key, { record, etag: `W/"${++etag}"` });
        return true;
      }),
    ping: (signal) =>
      Promise.resolve().then(() => {
        guard(signal);
      }),
    peek: (key) => rows.get(key),
  };
}
