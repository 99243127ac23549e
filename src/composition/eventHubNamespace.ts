import type { EventHubConnection } from '../config/appConfig';

/**
 * The namespace host as the Functions host names it in checkpoint paths (no port); with the hub's name
 * it also says where an event comes from (the HTTP sink's idempotency keys).
 */
export function namespaceOf(connection: EventHubConnection): string {
  if (connection.kind === 'identity') return connection.fullyQualifiedNamespace;
  const endpoint = /Endpoint=sb:\/\/([^/;:]+)/i.exec(connection.connectionString)?.[1];
  return endpoint ?? '';
}
