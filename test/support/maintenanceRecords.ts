import { BlobServiceClient } from '@azure/storage-blob';
import { inject } from 'vitest';

import { blobMaintenanceRecord } from '../../src/control/blobMaintenanceRecord';
import type { MaintenanceRecord } from '../../src/control/maintenance';

let counter = 0;

/** A maintenance record of its own on Azurite (a fresh container), so test files never share one. */
export function freshMaintenanceRecord(functionName: string): MaintenanceRecord {
  const service = BlobServiceClient.fromConnectionString(inject('storageConnectionString'));
  const name = `maint-${process.pid}-${counter++}-${Date.now().toString(36)}`;
  return blobMaintenanceRecord(service.getContainerClient(name), functionName);
}
