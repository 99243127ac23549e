import type { AppConfig } from '../config/appConfig';
import type { ActivitySink } from '../sinks/activitySink';
import { makeHomeActivityTableSink } from '../sinks/homeActivityTableSink';
import type { StorageClients } from '../storage/storageClients';
import { makeHttpActivitySink } from '../sinks/httpActivitySink';

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
        // Sequence numbers are per hub and partition: the hub's name makes the key unique.
        keyPrefix: config.eventHub.hubName,
      });
  }
  // #endregion choose-sink
}
