import { REDIS_MISSING, startAzurite, startRedis } from '../test/support/localServices';
import type { DemoServices } from './main';

export interface RunningServices extends DemoServices {
  /** Stops Azurite and redis-server; safe to call more than once. */
  readonly stop: () => Promise<void>;
}

/** A failure to start that deserves one line, not a stack trace. */
export class ServiceStartError extends Error {
  override readonly name = 'ServiceStartError';
}

/**
 * Starts redis-server first (it may be missing: fail fast) and Azurite, both on free ports. With
 * REDIS_URL set (as for the tests), that Redis is used and no redis-server is started.
 */
export async function startDemoServices(env: NodeJS.ProcessEnv = process.env): Promise<RunningServices> {
  const external = env.REDIS_URL;
  let redis: { url: string; stop: () => Promise<void> };
  try {
    redis = external ? { url: external, stop: () => Promise.resolve() } : await startRedis();
  } catch (error) {
    throw new ServiceStartError(
      error instanceof Error && error.message === REDIS_MISSING
        ? REDIS_MISSING
        : `redis-server did not start: ${String(error)}`,
    );
  }
  let azurite;
  try {
    azurite = await startAzurite();
  } catch (error) {
    await redis.stop();
    throw new ServiceStartError(
      `Azurite did not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let stopping: Promise<void> | undefined;
  return {
    storageConnectionString: azurite.connectionString,
    redisUrl: redis.url,
    stop: () => (stopping ??= Promise.all([azurite.stop(), redis.stop()]).then(() => undefined)),
  };
}
