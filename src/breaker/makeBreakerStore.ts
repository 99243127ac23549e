import type { AppConfig } from '../config/appConfig';
import type { StorageClients } from '../storage/storageClients';
import { breakerPolicyFrom } from './breakerPolicy';
import type { BreakerStore } from './breakerStore';
import { makeRedisBreakerStore } from './redisBreakerStore';
import { createBreakerRedis } from './redisClient';
import { makeTableBreakerStore } from './tableBreakerStore';

/**
 * The adapter `BREAKER_STORE` selects. Nothing connects here: the Redis client and the table are used
 * lazily, on the first call.
 */
export function makeBreakerStore(config: AppConfig, storage: StorageClients): BreakerStore {
  const policy = breakerPolicyFrom(config.breaker);
  const name = config.functionName;
  if (config.breaker.store === 'redis') {
    // loadConfig requires REDIS_CONNECTION when BREAKER_STORE=redis.
    return makeRedisBreakerStore({
      redis: createBreakerRedis(config.breaker.redisConnection ?? ''),
      name,
      policy,
    });
  }
  // One SDK retry, inside a bounded per-call timeout: a blip is ridden out, an outage costs ≤ 2 s.
  return makeTableBreakerStore({
    table: storage.table(config.breaker.tableName, { maxRetries: 1 }),
    name,
    policy,
  });
}
