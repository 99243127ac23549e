import type { StorageConnection } from '../storage/storageClients';
import type { EventHubConnection } from './appConfig';
import type { Environment } from './environment';
import type { ConfigProblem } from './errors';
import { hostSettingNames } from './settings';

// The connections the Functions host reads itself: a connection string, or identity-based settings
// (`<name>__accountName`, `<name>__fullyQualifiedNamespace`, ...), whose shape loadConfig checks here.

export function readStorage(env: Environment, problems: ConfigProblem[]): StorageConnection | undefined {
  const name = hostSettingNames.storage;
  const connectionString = nonEmpty(env[name]);
  if (connectionString !== undefined) {
    if (
      connectionString === 'UseDevelopmentStorage=true' ||
      /AccountName=|BlobEndpoint=/i.test(connectionString)
    ) {
      return { kind: 'connectionString', connectionString };
    }
    problems.push({
      setting: name,
      message: 'expected a storage connection string, e.g. "UseDevelopmentStorage=true"',
    });
    return undefined;
  }
  const account = nonEmpty(env[`${name}__accountName`]);
  const uri = (service: string) =>
    nonEmpty(env[`${name}__${service}ServiceUri`]) ??
    (account ? `https://${account}.${service}.core.windows.net` : undefined);
  const [blob, queue, table] = [uri('blob'), uri('queue'), uri('table')];
  if (blob && queue && table)
    return { kind: 'identity', blobServiceUri: blob, queueServiceUri: queue, tableServiceUri: table };
  problems.push({
    setting: name,
    message: `is required: a connection string, or identity-based ${name}__accountName (or __blobServiceUri, __queueServiceUri and __tableServiceUri)`,
  });
  return undefined;
}

export function readEventHubConnection(
  env: Environment,
  problems: ConfigProblem[],
): EventHubConnection | undefined {
  const name = hostSettingNames.eventHubConnection;
  const connectionString = nonEmpty(env[name]);
  if (connectionString !== undefined) return { kind: 'connectionString', connectionString };
  const namespace = nonEmpty(env[`${name}__fullyQualifiedNamespace`]);
  if (namespace !== undefined) return { kind: 'identity', fullyQualifiedNamespace: namespace };
  problems.push({
    setting: name,
    message: `is required: a connection string, or identity-based ${name}__fullyQualifiedNamespace, e.g. "ns.servicebus.windows.net"`,
  });
  return undefined;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
