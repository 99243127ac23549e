import type { AppConfig } from '../config/appConfig';
import type { FaultSwitchDeps } from '../faults/faultHandler';
import { makeTableFaultSwitchStore } from '../faults/tableFaultSwitchStore';
import { withFaultSwitch } from '../faults/withFaultSwitch';
import type { Clock } from '../kernel/clock';
import type { ActivitySink } from '../sinks/activitySink';
import type { StorageClients } from '../storage/storageClients';

/** The switch's row shares the breaker's table (its own partition), on the app's storage account. */
const faultStore = (config: AppConfig, storage: StorageClients) =>
  makeTableFaultSwitchStore(storage.table(config.breaker.tableName, { maxRetries: 1, tryTimeoutMs: 5_000 }));

/**
 * The sample sink behind the fault switch when FAULT_SWITCH_ENABLED (config allows it only with
 * SINK=table); otherwise the sink itself, untouched: production never pays for the switch.
 */
export function withFaultSwitchWhenEnabled(
  sink: ActivitySink,
  config: AppConfig,
  storage: StorageClients,
  clock: Clock,
): ActivitySink {
  if (!config.faultSwitch.enabled) return sink;
  return withFaultSwitch(sink, {
    store: faultStore(config, storage),
    clock,
    logger: console,
    cacheMs: config.breaker.stateCacheMs,
  });
}

/** What `/api/breaker/fault` needs. */
export function faultSwitchDeps({
  config,
  storage,
  clock,
}: {
  readonly config: AppConfig;
  readonly storage: StorageClients;
  readonly clock: Clock;
}): FaultSwitchDeps {
  return {
    enabled: config.faultSwitch.enabled,
    maxMinutes: config.faultSwitch.maxMinutes,
    store: faultStore(config, storage),
    clock,
  };
}
