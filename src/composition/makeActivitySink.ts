import type { AppConfig } from '../config/appConfig';
import type { ActivitySink } from '../sinks/activitySink';
import { makeHomeActivityTableSink } from '../sinks/homeActivityTableSink';
import { makeHttpActivitySink } from '../sinks/httpActivitySink';
import type { StorageClients } from '../storage/storageClients';
import { namespaceOf } from './eventHubNamespace';

/**
 * The sink `SINK` chooses. The per-event retry policy is the one retry layer for sink calls, so the
 * Table client's own retries are off and the HTTP sink never retries by itself.
 */
export function makeActivitySink(config: AppConfig, storage: StorageClients): ActivitySink {
  const { sink } = config;
  // #region choose-sink
  switch (sink.kind) {
    case 'table':
      return makeHomeActivityTableSink(storage.table(config.processing.sinkTable, { maxRetries: 0 }));
    case 'http':
      return makeHttpActivitySink({
        url: sink.url,
        healthUrl: sink.healthUrl,
        timeoutMs: sink.timeoutMs,
        // Sequence numbers are per hub and partition: namespace and hub make the key unique.
        keyPrefix: idempotencyNamespace(config),
      });
  }
  // #endregion choose-sink
}

/**
 * Hub names repeat across namespaces (staging and production, a second deployment during a migration):
 * the namespace host makes the key unique across deployments. The consumer group is left out on
 * purpose: the same event read through another group is the same reading, so the API's replay is right.
 */
function idempotencyNamespace(config: AppConfig): string {
  return `${namespaceOf(config.eventHub.connection).toLowerCase()}/${config.eventHub.hubName}`;
}
