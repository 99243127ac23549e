import { BlobServiceClient } from '@azure/storage-blob';
import { inject } from 'vitest';

import { blobMaintenanceRecord } from '../../src/maintenance/blobMaintenanceRecord';
import type { MaintenanceRecord } from '../../src/maintenance/maintenance';

let counter = 0;

/** A maintenance record of its own on Azurite (a fresh container), so test files never share one. */
export function freshMaintenanceRecord(functionName: string): MaintenanceRecord {
  const service = BlobServiceClient.fromConnectionString(inject('storageConnectionString'));
  const name = `maint-${process.pid}-${counter++}-${Date.now().toString(36)}`;
  return blobMaintenanceRecord(service.getContainerClient(name), functionName);
}
