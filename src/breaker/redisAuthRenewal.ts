import type { Redis } from 'ioredis';

import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import type { Clock } from '../kernel/clock';
import type { RedisCredentialProvider, RedisCredentials } from './redisCredentials';

/** Schedules a callback; returns a cancel function. Injected so tests drive renewals without sleeping. */
export type Scheduler = (run: () => void, delayMs: number) => () => void;

export interface RedisAuthRenewalOptions {
  readonly credentials: RedisCredentialProvider;
  readonly clock: Clock;
  readonly schedule?: Scheduler;
  readonly logger?: Logger;
  /** Renew this long before expiry (Entra tokens live about an hour; renew with minutes to spare). */
  readonly renewBeforeMs?: number;
  /** After a failed renewal, try again this soon (bounded by the expiry). */
  readonly retryMs?: number;
}

export interface RedisAuthRenewal {
  /**
   * Resolves once credentials are on the client; until then, the current attempt to fetch them
   * (rejects when it fails; the next attempt is already scheduled).
   */
  credentialsReady(): Promise<void>;
  /** Renews now (what the timer calls); resolves when the live connection is re-authenticated. */
  renewNow(): Promise<void>;
  stop(): void;
}

const realScheduler: Scheduler = (run, delayMs) => {
  const timer = setTimeout(run, delayMs);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
};

/**
 * Keeps a client authenticated with expiring credentials (an Entra token as the password): before each
 * expiry it fetches new ones, stores them in the client's options (used by every reconnect) and sends
 * AUTH on the live connection, so the connection is never dropped for an expired token. Stops when the
 * client ends (the store's close()).
 */
export function keepRedisAuthenticated(client: Redis, options: RedisAuthRenewalOptions): RedisAuthRenewal {
  const schedule = options.schedule ?? realScheduler;
  const logger = options.logger ?? console;
  const renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  const retryMs = options.retryMs ?? 15_000;
  let cancel: (() => void) | undefined;
  let stopped = false;
  let expiresAt = 0;
  let applied = false;
  let attempt: Promise<void> = Promise.resolve();

  const apply = async (c: RedisCredentials) => {
    client.options.username = c.username;
    client.options.password = c.password;
    expiresAt = c.expiresAt;
    applied = true;
    // The live connection switches to the new password now; a reconnect later uses the options.
    if (client.status === 'ready') await client.auth(c.username, c.password);
  };

  const plan = (delayMs: number) => {
    cancel?.();
    if (!stopped) cancel = schedule(() => void renewNow(), Math.max(1_000, delayMs));
  };

  const renewNow = (): Promise<void> => {
    attempt = renew();
    attempt.catch(() => undefined);
    return attempt;
  };

  const renew = async (): Promise<void> => {
    try {
      await apply(await options.credentials());
      plan(expiresAt - renewBeforeMs - options.clock.now());
    } catch (error) {
      logger.warn(`redis credentials not renewed (will retry): ${ensureError(error).message}`);
      plan(Math.min(retryMs, Math.max(0, expiresAt - options.clock.now() - 1_000)));
      throw error;
    }
  };

  client.once('end', () => {
    stopped = true;
    cancel?.();
  });
  void renewNow();
  return {
    credentialsReady: () => (applied ? Promise.resolve() : attempt),
    renewNow,
    stop() {
      stopped = true;
      cancel?.();
    },
  };
}
