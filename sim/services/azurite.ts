import { createRequire } from 'node:module';
import path from 'node:path';

import { spawnService, stopService } from './childProcesses';
import { freePort, waitForPort } from './freePort';

export interface AzuriteService {
  readonly connectionString: string;
  readonly ports: { readonly blob: number; readonly queue: number; readonly table: number };
  readonly stop: () => Promise<void>;
}

// Azurite's well-known development account (public, documented by Microsoft; not a secret).
const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** Azurite's version, from the copy in node_modules that `startAzurite` runs. */
export function azuriteVersion(): string {
  const require = createRequire(__filename);
  return (require('azurite/package.json') as { version: string }).version;
}

/** Starts Azurite from node_modules, in memory, on free ports, with the Node that runs this process. */
export async function startAzurite(): Promise<AzuriteService> {
  const [blob, queue, table] = [await freePort(), await freePort(), await freePort()];
  const entry = path.join(
    path.dirname(createRequire(__filename).resolve('azurite/package.json')),
    'dist/src/azurite.js',
  );
  const hosts = ['--blobHost', '127.0.0.1', '--queueHost', '127.0.0.1', '--tableHost', '127.0.0.1'];
  const ports = ['--blobPort', String(blob), '--queuePort', String(queue), '--tablePort', String(table)];
  const flags = [
    '--silent',
    '--inMemoryPersistence',
    '--disableTelemetry',
    '--skipApiVersionCheck',
    '--loose',
  ];
  const child = spawnService(
    process.execPath,
    [entry, ...flags, ...hosts, ...ports],
    { stdio: 'ignore' },
    {
      name: 'Azurite',
    },
  );
  const alive = () => child.exitCode === null;
  try {
    await Promise.all([blob, queue, table].map((p) => waitForPort(p, 20_000, alive)));
  } catch (error) {
    await stopService(child);
    throw error;
  }
  const host = 'http://127.0.0.1';
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${KEY};` +
    `BlobEndpoint=${host}:${blob}/${ACCOUNT};QueueEndpoint=${host}:${queue}/${ACCOUNT};TableEndpoint=${host}:${table}/${ACCOUNT};`;
  return { connectionString, ports: { blob, queue, table }, stop: () => stopService(child) };
}
