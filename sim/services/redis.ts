import { spawnSync } from 'node:child_process';

import { aptInstall, canInstallWithApt } from './aptInstall';
import { spawnService, stopService } from './childProcesses';
import { freePort, waitForPort } from './freePort';
import { ToolMissingError } from './toolMissingError';

export interface RedisService {
  readonly url: string;
  readonly port: number;
  readonly stop: () => Promise<void>;
}

/** Where a run's Redis comes from, and the words that say so in the run's header line. */
export type RedisSource =
  | { readonly kind: 'url'; readonly url: string; readonly description: string }
  | { readonly kind: 'server'; readonly description: string };

export const REDIS_MISSING =
  'Redis is needed: set REDIS_URL to a running Redis, or install redis-server ' +
  '(Debian/Ubuntu: sudo apt-get install -y redis-server; macOS: brew install redis)';

function redisServerVersion(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8', env });
  if (probe.error || probe.status !== 0) return undefined;
  return /v=(\S+)/.exec(probe.stdout)?.[1] ?? 'unknown version';
}

/**
 * Finds Redis for a run, in this order: REDIS_URL; redis-server on PATH; redis-server installed with
 * apt-get where that is allowed (`install`, and `canInstallWithApt`). Throws ToolMissingError otherwise.
 */
export function locateRedis(
  env: NodeJS.ProcessEnv = process.env,
  { install }: { readonly install: boolean } = { install: true },
): RedisSource {
  const url = env.REDIS_URL;
  if (url) return { kind: 'url', url, description: `REDIS_URL (${url.replace(/\/\/[^@/]*@/, '//***@')})` };
  const onPath = redisServerVersion(env);
  if (onPath) return { kind: 'server', description: `redis-server ${onPath} on PATH` };
  if (install && canInstallWithApt(env)) {
    aptInstall(['redis-server']);
    const installed = redisServerVersion(env);
    if (installed)
      return { kind: 'server', description: `redis-server ${installed}, installed with apt-get` };
  }
  throw new ToolMissingError(REDIS_MISSING);
}

/** Starts a throwaway redis-server (no persistence) on a free port, or on `port` when given (restarts). */
export async function startRedis(port?: number): Promise<RedisService> {
  if (redisServerVersion() === undefined) throw new ToolMissingError(REDIS_MISSING);
  const p = port ?? (await freePort());
  const args = ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawnService('redis-server', args, { stdio: 'ignore' }, { name: 'redis-server' });
  try {
    await waitForPort(p, 10_000, () => child.exitCode === null);
  } catch (error) {
    await stopService(child);
    throw error;
  }
  return { url: `redis://127.0.0.1:${p}`, port: p, stop: () => stopService(child) };
}
