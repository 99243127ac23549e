import { startAzurite } from '../sim/services/azurite';
import { locateRedis, type RedisService, startRedis } from '../sim/services/redis';
import { isToolMissingError } from '../sim/services/toolMissingError';
import type { BreakerStoreChoice } from './args';
import type { DemoServices } from './main';

export interface RunningServices extends DemoServices {
  /** Stops Azurite and redis-server; safe to call more than once. */
  readonly stop: () => Promise<void>;
}

/** A failure to start that deserves one line, not a stack trace. */
export class ServiceStartError extends Error {
  override readonly name = 'ServiceStartError';
}

const NO_REDIS_NOTE =
  'Table on the embedded Azurite: no Redis here (set REDIS_URL or install redis-server for the Redis store)';

/**
 * Starts Azurite and, for the Redis store, redis-server (or uses REDIS_URL), on free ports. `auto` takes
 * Redis when one is to be had without installing anything, else the Table store; `redis` insists.
 * The demo never installs system packages: that is the test run's business.
 */
export async function startDemoServices(
  store: BreakerStoreChoice,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningServices> {
  let redisUrl: string | undefined;
  let redis: RedisService | undefined;
  let storeNote = 'Table on the embedded Azurite (--store table)';
  if (store !== 'table') {
    try {
      const source = locateRedis(env, { install: false });
      redis = source.kind === 'server' ? await startRedis() : undefined;
      redisUrl = source.kind === 'url' ? source.url : redis?.url;
      storeNote = `Redis from ${source.description}`;
    } catch (error) {
      if (!isToolMissingError(error))
        throw new ServiceStartError(`redis-server did not start: ${String(error)}`);
      if (store === 'redis') throw new ServiceStartError(error.message);
      storeNote = NO_REDIS_NOTE;
    }
  }
  let azurite;
  try {
    azurite = await startAzurite();
  } catch (error) {
    await redis?.stop();
    throw new ServiceStartError(
      `Azurite did not start: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let stopping: Promise<void> | undefined;
  const stopAll = () => Promise.all([azurite.stop(), redis?.stop()]).then(() => undefined);
  return {
    storageConnectionString: azurite.connectionString,
    ...(redisUrl === undefined ? {} : { redisUrl }),
    storeNote,
    stop: () => (stopping ??= stopAll()),
  };
}
