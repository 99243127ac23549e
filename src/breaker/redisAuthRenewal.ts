import type { Redis } from 'ioredis';

import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
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
  /** After a failed renewal, try again this soon, doubling on each failure in a row (bounded by the expiry). */
  readonly retryMs?: number;
  /** Bound of one credentials request: one that hangs is given up and retried like a failure. */
  readonly requestTimeoutMs?: number;
}

/** Entra tokens live at most a day; a later expiry is not believed. */
const MAX_LIFETIME_MS = 24 * 3_600_000;
/** Longest wait between retries of failing requests. */
const MAX_RETRY_MS = 5 * 60_000;

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
  const requestTimeoutMs = options.requestTimeoutMs ?? 20_000;
  let failuresInARow = 0;
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
    // A renewal asked for now replaces the planned one (which may be the timer that called this).
    cancel?.();
    cancel = undefined;
    attempt = renew();
    attempt.catch(() => undefined);
    return attempt;
  };

  /** The request within its bound, timed by the same scheduler (tests fire it by hand). */
  const requestCredentials = () =>
    new Promise<RedisCredentials>((resolve, reject) => {
      const cancelTimeout = schedule(() => {
        cancelTimeout(); // fired: nothing left to cancel (a scheduler may still track it)
        reject(new Error(`the credentials request got no answer within ${requestTimeoutMs / 1000} s`));
      }, requestTimeoutMs);
      options.credentials().then(
        (c) => {
          cancelTimeout();
          resolve(c);
        },
        (error: unknown) => {
          cancelTimeout();
          reject(ensureError(error));
        },
      );
    });

  const backoff = () => Math.min(MAX_RETRY_MS, retryMs * 2 ** Math.max(0, failuresInARow - 1));

  const renew = async (): Promise<void> => {
    try {
      const c = await requestCredentials();
      const now = options.clock.now();
      // NaN, a past time or one beyond a token's life would plan the next renewal at once, forever
      // (a hot loop of token requests and AUTHs): renew after the retry delay instead, or within a day.
      if (!Number.isFinite(c.expiresAt) || c.expiresAt <= now) {
        logger.warn(
          `redis credentials came with an unusable expiry (${String(c.expiresAt)}); renewing in ${retryMs / 1000} s`,
        );
        await apply({ ...c, expiresAt: now + retryMs });
        failuresInARow = 0;
        plan(retryMs);
        return;
      }
      await apply({ ...c, expiresAt: Math.min(c.expiresAt, now + MAX_LIFETIME_MS) });
      failuresInARow = 0;
      plan(expiresAt - renewBeforeMs - now);
    } catch (error) {
      failuresInARow++;
      logger.warn(`redis credentials not renewed (will retry): ${ensureError(error).message}`);
      const left = expiresAt - options.clock.now() - 1_000;
      // Before the first credentials there is no expiry to keep: back off alone.
      plan(applied ? Math.min(backoff(), Math.max(0, left)) : backoff());
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
