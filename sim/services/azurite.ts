import { createRequire } from 'node:module';
import path from 'node:path';

import { type ConformanceProxy, startConformanceProxy } from '../azure/storageConformance/conformanceProxy';
import { spawnService, stopService } from './childProcesses';
import { freePort, waitForPort } from './freePort';

export interface AzuriteService {
  /** Points at the storage conformance layer in front of Azurite, never at Azurite's own ports. */
  readonly connectionString: string;
  /** Refusals of the conformance layer so far, by error code, all three services together. */
  readonly refusals: () => ReadonlyMap<string, number>;
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

/**
 * Starts Azurite from node_modules, in memory, on free ports, with the Node that runs this process, and
 * the storage conformance layer in front of it: the connection string handed out reaches Azurite only
 * through the layer, so the service limits Azurite does not enforce are enforced for every client.
 */
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
    // 45 s: on a loaded 2-core machine (a load average of about 20) Azurite has missed 20 s; it costs
    // nothing when it starts at once, and stays inside the tests' 60 s hook timeout.
    await Promise.all([blob, queue, table].map((p) => waitForPort(p, 45_000, alive)));
  } catch (error) {
    await stopService(child);
    throw error;
  }
  let proxies: ConformanceProxy[];
  try {
    proxies = await Promise.all([
      startConformanceProxy('blob', blob),
      startConformanceProxy('queue', queue),
      startConformanceProxy('table', table),
    ]);
  } catch (error) {
    await stopService(child);
    throw error;
  }
  const [blobLayer, queueLayer, tableLayer] = proxies.map((p) => p.port);
  const host = 'http://127.0.0.1';
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${KEY};` +
    `BlobEndpoint=${host}:${blobLayer}/${ACCOUNT};QueueEndpoint=${host}:${queueLayer}/${ACCOUNT};TableEndpoint=${host}:${tableLayer}/${ACCOUNT};`;
  const refusals = () => {
    const all = new Map<string, number>();
    for (const p of proxies) for (const [code, n] of p.refusals) all.set(code, (all.get(code) ?? 0) + n);
    return all;
  };
  return {
    connectionString,
    refusals,
    stop: async () => {
      await Promise.all(proxies.map((p) => p.close()));
      await stopService(child);
    },
  };
}
