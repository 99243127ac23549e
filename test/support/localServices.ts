import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

import { freePort, waitForPort } from './freePort';

export interface Service {
  readonly stop: () => Promise<void>;
}

export interface AzuriteService extends Service {
  readonly connectionString: string;
  readonly ports: { readonly blob: number; readonly queue: number; readonly table: number };
}

const ACCOUNT = 'devstoreaccount1';
const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** Starts Azurite from node_modules, in memory, on free ports. */
export async function startAzurite(): Promise<AzuriteService> {
  const [blob, queue, table] = [await freePort(), await freePort(), await freePort()];
  const entry = path.join(
    path.dirname(createRequire(__filename).resolve('azurite/package.json')),
    'dist/src/azurite.js',
  );
  const child = spawn(
    process.execPath,
    [
      entry,
      '--silent',
      '--inMemoryPersistence',
      '--disableTelemetry',
      '--skipApiVersionCheck',
      '--loose',
      '--blobHost',
      '127.0.0.1',
      '--queueHost',
      '127.0.0.1',
      '--tableHost',
      '127.0.0.1',
      '--blobPort',
      String(blob),
      '--queuePort',
      String(queue),
      '--tablePort',
      String(table),
    ],
    { stdio: 'ignore' },
  );
  const alive = () => child.exitCode === null;
  await Promise.all([blob, queue, table].map((p) => waitForPort(p, 20_000, alive)));
  const host = 'http://127.0.0.1';
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${ACCOUNT};AccountKey=${KEY};` +
    `BlobEndpoint=${host}:${blob}/${ACCOUNT};QueueEndpoint=${host}:${queue}/${ACCOUNT};TableEndpoint=${host}:${table}/${ACCOUNT};`;
  return { connectionString, ports: { blob, queue, table }, stop: () => stopProcess(child) };
}

export interface RedisService extends Service {
  readonly url: string;
  readonly port: number;
}

export const REDIS_MISSING =
  'redis-server was not found on PATH: install it (Debian/Ubuntu: apt-get install -y redis-server) or set REDIS_URL to a running Redis';

/** Starts a throwaway redis-server (no persistence) on a free port, or on `port` when given (restarts). */
export async function startRedis(port?: number): Promise<RedisService> {
  if (spawnSync('redis-server', ['--version']).error) throw new Error(REDIS_MISSING);
  const p = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await waitForPort(p, 10_000, () => child.exitCode === null);
  return { url: `redis://127.0.0.1:${p}`, port: p, stop: () => stopProcess(child) };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}
