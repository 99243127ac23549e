import { RestError } from '@azure/core-rest-pipeline';
import { TableClient } from '@azure/data-tables';

import type { SinkKind } from '../../src/config/sinkSettings';
import type { Clock } from '../../src/kernel/clock';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { readingVersion, type SensorActivityRow } from '../../src/sinks/homeActivityTableSink';
import { encodeTableKey } from '../../src/sinks/tableKeys';
import { invocationScope } from '../host/invocationScope';
import type { Downstream } from './downstream';
import { type HttpDownstream, startHttpDownstream } from './httpDownstream';

/** One successful sink write, as the downstream saw it. */
export interface SinkWrite {
  readonly partitionId: string;
  readonly sequenceNumber: number;
  readonly run: string;
  readonly at: number;
  /** `homeId/sensorId`: the key the sink orders by. */
  readonly key: string;
  /** The reading's version (newest wins). */
  readonly version: string;
  /** The host instance and invocation that wrote it (`?` outside the trigger, e.g. a redrive). */
  readonly instanceId: string;
  readonly invocationId: string;
}

/**
 * The downstream of a world: the real Table sink on Azurite (down = a 503 in front of it) or the real
 * HTTP sink against a local HTTP API (down = the API resets every connection).
 */
export interface WorldDownstream extends Downstream {
  readonly kind: SinkKind;
  /** Settings that point the app at this downstream. */
  readonly settings: Record<string, string>;
  readonly http: HttpDownstream | undefined;
  /** Wraps the real sink: records each successful write (and, for table, fails while down). */
  decorate(real: ActivitySink, writes: SinkWrite[], clock: Clock): ActivitySink;
  /** The version the downstream holds for `homeId/sensorId`, read from the downstream itself. */
  heldVersion(env: Record<string, string>, key: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function startWorldDownstream(kind: SinkKind): Promise<WorldDownstream> {
  const http = kind === 'http' ? await startHttpDownstream() : undefined;
  let down = false;
  let refuse: Downstream['refuse'];
  const calls: Downstream['calls'] = [];
  let table: TableClient | undefined;
  const unavailable = () => new RestError('downstream unavailable', { statusCode: 503 });
  return {
    kind,
    http,
    settings: http
      ? {
          SINK: 'http',
          SINK_HTTP_URL: http.url,
          SINK_HTTP_HEALTH_URL: http.healthUrl,
          SINK_HTTP_TIMEOUT_MS: '5000',
        }
      : { SINK: 'table' },
    calls,
    get refuse() {
      return refuse;
    },
    set refuse(value: Downstream['refuse']) {
      refuse = value;
    },
    get down() {
      return down;
    },
    set down(value: boolean) {
      down = value;
      if (http) http.mode = { kind: value ? 'down' : 'up' };
    },
    decorate: (real, writes, clock) => ({
      write: async (reading, event, signal) => {
        calls.push({ at: clock.now(), down, run: String(event.properties.run) });
        if (down && !http) throw unavailable();
        const refused = refuse?.(reading, event);
        if (refused) throw refused;
        const result = await real.write(reading, event, signal);
        const scope = invocationScope.getStore();
        writes.push({
          instanceId: scope?.instanceId ?? '?',
          invocationId: scope?.invocationId ?? '?',
          partitionId: event.partitionId ?? '?',
          sequenceNumber: event.sequenceNumber ?? -1,
          run: String(event.properties.run),
          at: clock.now(),
          key: `${reading.homeId}/${reading.sensorId}`,
          version: readingVersion(reading, event),
        });
        return result;
      },
      probe: async (signal) => {
        if (down && !http) throw unavailable();
        await real.probe(signal);
      },
      // What the real sink declares about order (ORDERING=key uses it), passed on as it is.
      ...(real.orderingKey ? { orderingKey: real.orderingKey.bind(real) } : {}),
      ...(real.readingVersion ? { readingVersion: real.readingVersion.bind(real) } : {}),
      ...(real.writeGroup ? { writeGroup: real.writeGroup.bind(real) } : {}),
    }),
    heldVersion: async (env, key) => {
      // `homeId/sensorId`; a sensor id may hold a `/` (a drawn key character): split at the first.
      const cut = key.indexOf('/');
      const [homeId, sensorId] = cut < 0 ? [key, ''] : [key.slice(0, cut), key.slice(cut + 1)];
      if (http) return http.held(homeId, sensorId)?.body.version;
      table ??= TableClient.fromConnectionString(env.AzureWebJobsStorage ?? '', env.SINK_TABLE_NAME ?? '', {
        allowInsecureConnection: true,
      });
      try {
        return (await table.getEntity<SensorActivityRow>(encodeTableKey(homeId), encodeTableKey(sensorId)))
          .version;
      } catch (error) {
        if (error instanceof RestError && error.statusCode === 404) return undefined;
        throw error;
      }
    },
    close: async () => {
      await http?.close();
    },
  };
}
