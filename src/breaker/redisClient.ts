import { Redis } from 'ioredis';

import { BreakerStoreUnavailableError, RedisCredentialsError } from './errors';
import { keepRedisAuthenticated, type RedisAuthRenewalOptions } from './redisAuthRenewal';

export interface BreakerRedisOptions {
  /** Upper bound of one command, queueing included. */
  readonly commandTimeoutMs?: number;
  /** How long a call waits for the first connection before it counts as an outage. */
  readonly connectTimeoutMs?: number;
  /**
   * Expiring credentials (REDIS_AUTH=entra): fetched before the first connect and renewed on the live
   * connection before they expire. Without it, the URL's own credentials (if any) are used.
   */
  readonly auth?: RedisAuthRenewalOptions;
}

/** Clients whose first connect waits for credentials (see whenReady). */
const credentialGates = new WeakMap<Redis, () => Promise<void>>();

/**
 * A Redis client for the breaker store with bounded waits, so an outage costs a batch at most a few
 * hundred milliseconds (G6) instead of stalling it:
 * - no offline queue and no resend after a dropped connection: a record whose reply was lost is
 *   reported as failed and never replayed later behind the gate's back (a replayed record could trip
 *   the breaker with nobody told `tripped`);
 * - one command timeout; reconnects keep trying in the background with a capped backoff.
 */
export function createBreakerRedis(url: string, options: BreakerRedisOptions = {}): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: options.connectTimeoutMs ?? 1000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
  // Connection errors surface through the commands that fail; the gate logs those, once per interval.
  client.on('error', () => undefined);
  if (options.auth) {
    const renewal = keepRedisAuthenticated(client, options.auth);
    credentialGates.set(client, () => renewal.credentialsReady());
  }
  return client;
}

/**
 * Resolves when the client can send. Waits (bounded) only for a first connection in progress; while
 * the client is known to be reconnecting after a loss, fails at once so an outage costs nothing.
 */
export async function whenReady(client: Redis, waitMs: number): Promise<void> {
  if (client.status === 'ready') return;
  const credentials = credentialGates.get(client);
  if (credentials !== undefined && client.status === 'wait') await withinMs(credentials(), waitMs);
  if (client.status === 'wait') client.connect().catch(() => undefined);
  if (client.status !== 'connecting' && client.status !== 'connect') {
    throw new BreakerStoreUnavailableError(`redis is ${client.status}`);
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      done();
      reject(new BreakerStoreUnavailableError(`redis not ready within ${waitMs} ms (${client.status})`));
    }, waitMs);
    const onReady = () => {
      done();
      resolve();
    };
    const onEnd = () => {
      done();
      reject(new BreakerStoreUnavailableError(`redis connection failed (${client.status})`));
    };
    const done = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('reconnecting', onEnd);
      client.off('end', onEnd);
    };
    client.on('ready', onReady);
    client.on('reconnecting', onEnd);
    client.on('end', onEnd);
  });
}

/** The credentials' first fetch (retries included), bounded like a connect: slow counts as the store unavailable. */
async function withinMs(pending: Promise<void>, waitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new BreakerStoreUnavailableError(`redis credentials not ready within ${waitMs} ms`));
    }, waitMs);
  });
  try {
    await Promise.race([pending, late]);
  } catch (error) {
    // A provider that keeps failing is reported as itself (its message is already bounded and sanitised).
    throw error instanceof BreakerStoreUnavailableError || error instanceof RedisCredentialsError
      ? error
      : new BreakerStoreUnavailableError(
          `redis credentials unavailable: ${error instanceof Error ? error.message : String(error)}`,
        );
  } finally {
    clearTimeout(timer);
  }
}
