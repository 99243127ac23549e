import { blobMaintenanceRecord } from '../maintenance/blobMaintenanceRecord';
import type { MaintenanceRecord } from '../maintenance/maintenance';
import type { Runtime } from './runtime';

/** The maintenance record of the guarded function, in the app's own storage account (one per process). */
export function maintenanceRecordFor(runtime: Runtime): MaintenanceRecord {
  let record = records.get(runtime);
  if (record === undefined) {
    record = blobMaintenanceRecord(
      runtime.storage.container(runtime.config.operations.maintenanceContainer),
      runtime.config.functionName,
    );
    records.set(runtime, record);
  }
  return record;
}

const records = new WeakMap<Runtime, MaintenanceRecord>();
