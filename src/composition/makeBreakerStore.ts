import type { TokenCredential } from '@azure/core-auth';

import { breakerPolicyFrom } from '../breaker/breakerPolicy';
import type { BreakerStore } from '../breaker/breakerStore';
import { makeRedisBreakerStore } from '../breaker/redisBreakerStore';
import { createBreakerRedis } from '../breaker/redisClient';
import { entraRedisCredentials } from '../breaker/redisCredentials';
import { makeTableBreakerStore } from '../breaker/tableBreakerStore';
import type { AppConfig } from '../config/appConfig';
import type { Clock } from '../kernel/clock';
import type { StorageClients } from '../storage/storageClients';

/**
 * The adapter `BREAKER_STORE` selects. Nothing connects here: the Redis client and the table are used
 * lazily, on the first call.
 */
export function makeBreakerStore(
  config: AppConfig,
  storage: StorageClients,
  identity: { readonly getCredential: () => TokenCredential; readonly clock: Clock },
): BreakerStore {
  const policy = breakerPolicyFrom(config.breaker);
  const name = config.functionName;
  if (config.breaker.store === 'redis') {
    // loadConfig requires REDIS_CONNECTION when BREAKER_STORE=redis (rediss:// without a password for entra).
    const url = config.breaker.redisConnection ?? '';
    const entra = config.operations.redisAuth === 'entra';
    const username = URL.canParse(url) ? decodeURIComponent(new URL(url).username) : '';
    return makeRedisBreakerStore({
      redis: createBreakerRedis(url, {
        ...(entra
          ? {
              auth: {
                credentials: entraRedisCredentials(
                  { getToken: (scopes, options) => identity.getCredential().getToken(scopes, options) },
                  username === '' ? undefined : username,
                ),
                clock: identity.clock,
              },
            }
          : {}),
      }),
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
