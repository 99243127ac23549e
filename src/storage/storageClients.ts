import type { TokenCredential } from '@azure/core-auth';
import { TableClient, type TableServiceClientOptions } from '@azure/data-tables';
import {
  BlobServiceClient,
  type ContainerClient,
  type StoragePipelineOptions as BlobPipelineOptions,
} from '@azure/storage-blob';
import {
  type QueueClient,
  QueueServiceClient,
  type StoragePipelineOptions as QueuePipelineOptions,
} from '@azure/storage-queue';

export interface StorageClientOptions {
  /**
   * SDK-level retries. Where our own policy already retries a call (the sink), pass 0 so retries
   * happen in exactly one layer.
   */
  readonly maxRetries?: number;
  /** First delay between SDK retries (exponential up to 8x). */
  readonly retryDelayMs?: number;
  /** Time limit of one try, so a hung connection cannot stall an invocation. */
  readonly tryTimeoutMs?: number;
}

/** Creates Table, Blob and Queue clients for one storage account, by connection string or identity. */
export interface StorageClients {
  table(name: string, options?: StorageClientOptions): TableClient;
  container(name: string, options?: StorageClientOptions): ContainerClient;
  queue(name: string, options?: StorageClientOptions): QueueClient;
}

export function makeStorageClients(
  connection: StorageConnection,
  credential: () => TokenCredential,
): StorageClients {
  const tableOptions = (o?: StorageClientOptions): TableServiceClientOptions => ({
    // Azurite (local development and tests) speaks plain http.
    allowInsecureConnection: connection.kind === 'connectionString' && isLocal(connection.connectionString),
    retryOptions: {
      ...(o?.maxRetries === undefined ? {} : { maxRetries: o.maxRetries }),
      ...(o?.retryDelayMs === undefined
        ? {}
        : { retryDelayInMs: o.retryDelayMs, maxRetryDelayInMs: o.retryDelayMs * 8 }),
    },
  });
  const pipelineOptions = (o?: StorageClientOptions): BlobPipelineOptions & QueuePipelineOptions => ({
    retryOptions: {
      ...(o?.maxRetries === undefined ? {} : { maxTries: o.maxRetries + 1 }),
      ...(o?.retryDelayMs === undefined
        ? {}
        : { retryDelayInMs: o.retryDelayMs, maxRetryDelayInMs: o.retryDelayMs * 8 }),
      ...(o?.tryTimeoutMs === undefined ? {} : { tryTimeoutInMs: o.tryTimeoutMs }),
    },
  });

  if (connection.kind === 'connectionString') {
    const cs = connection.connectionString;
    return {
      table: (name, o) => TableClient.fromConnectionString(cs, name, tableOptions(o)),
      container: (name, o) =>
        BlobServiceClient.fromConnectionString(cs, pipelineOptions(o)).getContainerClient(name),
      queue: (name, o) =>
        QueueServiceClient.fromConnectionString(cs, pipelineOptions(o)).getQueueClient(name),
    };
  }
  return {
    table: (name, o) => new TableClient(connection.tableServiceUri, name, credential(), tableOptions(o)),
    container: (name, o) =>
      new BlobServiceClient(connection.blobServiceUri, credential(), pipelineOptions(o)).getContainerClient(
        name,
      ),
    queue: (name, o) =>
      new QueueServiceClient(connection.queueServiceUri, credential(), pipelineOptions(o)).getQueueClient(
        name,
      ),
  };
}

function isLocal(connectionString: string): boolean {
  return connectionString === 'UseDevelopmentStorage=true' || /Endpoint=http:\/\//i.test(connectionString);
}

export type StorageConnection =
  | { readonly kind: 'connectionString'; readonly connectionString: string }
  | {
      readonly kind: 'identity';
      readonly blobServiceUri: string;
      readonly queueServiceUri: string;
      readonly tableServiceUri: string;
    };
