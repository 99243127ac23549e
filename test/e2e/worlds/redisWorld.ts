import { type RedisService, startRedis } from '../../../sim/services/redis';
import { BreakwaterWorld, type WorldOptions } from '../../../sim/world/breakwaterWorld';

/** A world on the Redis breaker store, with its own redis-server that tests may stop and restart. */
export class RedisWorld {
  private constructor(
    readonly world: BreakwaterWorld,
    private redis: RedisService,
  ) {}

  static async create(
    storageConnectionString: string,
    options: Omit<WorldOptions, 'storageConnectionString'> = {},
  ): Promise<RedisWorld> {
    const redis = await startRedis();
    const world = await BreakwaterWorld.create({
      ...options,
      storageConnectionString,
      settings: { BREAKER_STORE: 'redis', REDIS_CONNECTION: redis.url, ...options.settings },
    });
    return new RedisWorld(world, redis);
  }

  /** Stops redis-server: the breaker store is unreachable. */
  stopRedis(): Promise<void> {
    return this.redis.stop();
  }

  /** Starts an empty redis-server on the same port and waits until the store answers again. */
  async restartRedisEmpty(): Promise<void> {
    this.redis = await startRedis(this.redis.port);
    await this.world.storeAnswers();
  }

  async close(): Promise<void> {
    await this.world.close();
    await this.redis.stop();
  }
}
