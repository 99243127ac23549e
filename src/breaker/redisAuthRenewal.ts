import type { Redis } from 'ioredis';

import { boundText } from '../kernel/boundText';
import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import { redactSecrets } from '../kernel/redactSecrets';
import { CREDENTIAL_RETRY_DELAYS_MS, credentialRetryDelayMs } from './credentialRetryDelay';
import { RedisCredentialsError } from './errors';
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
  /** Bound of one credentials request: one that hangs is given up and retried like a failure. */
  readonly requestTimeoutMs?: number;
  /** A token with less than this left is treated as expired: never used, asked for again at once. */
  readonly minValidityMs?: number;
  /** Jitter of the retry delays, in [0, 1) (Math.random unless injected). */
  readonly random?: () => number;
}

/** Entra tokens live at most a day; a later expiry is not believed. */
const MAX_LIFETIME_MS = 24 * 3_600_000;
/** Bound of a provider's error message in logs and in RedisCredentialsError. */
const MESSAGE_BOUND = 200;

export interface RedisAuthRenewal {
  /**
   * Resolves once usable credentials are on the client, waiting for retries in progress; rejects with
   * RedisCredentialsError while the provider keeps failing (every delay of the retry schedule used up).
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

/** A provider's message, safe for a log line or an error: secrets masked, control characters gone, bounded. */
const sanitised = (error: unknown) => boundText(redactSecrets(ensureError(error).message), MESSAGE_BOUND);

/**
 * Keeps a client authenticated with expiring credentials (an Entra token as the password): before each
 * expiry it fetches new ones, stores them in the client's options (used by every reconnect) and sends
 * AUTH on the live connection, so the connection is never dropped for an expired token. A failed, hung
 * or expired answer is retried at once, then after 0.5, 1, 2, 4 and 5 s (each request bounded), and a
 * client that lost its connection meanwhile reconnects as soon as new credentials arrive. Stops when the
 * client ends (the store's close()).
 */
export function keepRedisAuthenticated(client: Redis, options: RedisAuthRenewalOptions): RedisAuthRenewal {
  const schedule = options.schedule ?? realScheduler;
  const logger = options.logger ?? console;
  const random = options.random ?? Math.random;
  const renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 5_000;
  const minValidityMs = options.minValidityMs ?? 30_000;
  let failuresInARow = 0;
  let lastFailure = '';
  let cancel: (() => void) | undefined;
  let stopped = false;
  let expiresAt = 0;
  let inFlight = false;
  let attempt: Promise<void> = Promise.resolve();
  /** Set when credentials changed during a connect with the old ones: that reconnect goes at once. */
  let reconnectAtOnce = false;
  let waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];

  const usable = () => expiresAt > options.clock.now();
  const givenUp = () => failuresInARow >= CREDENTIAL_RETRY_DELAYS_MS.length;
  const credentialsError = () =>
    new RedisCredentialsError(
      `no usable Microsoft Entra token for Redis after ${failuresInARow} requests in a row; last: ${lastFailure}`,
    );
  const settleWaiters = (error?: Error) => {
    const pending = waiters;
    waiters = [];
    for (const w of pending) {
      if (error) w.reject(error);
      else w.resolve();
    }
  };

  const baseRetryStrategy = client.options.retryStrategy;
  client.options.retryStrategy = (times) => {
    if (!reconnectAtOnce) return baseRetryStrategy?.(times);
    reconnectAtOnce = false;
    return 0;
  };

  const apply = async (c: RedisCredentials) => {
    client.options.username = c.username;
    client.options.password = c.password;
    expiresAt = c.expiresAt;
    // The live connection switches to the new password now; a reconnect later uses the options. A
    // client waiting to reconnect (the old token was refused) goes now instead of after its backoff.
    if (client.status === 'ready') await client.auth(c.username, c.password);
    else if (client.status === 'reconnecting') client.connect().catch(() => undefined);
    else if (client.status === 'connecting' || client.status === 'connect') reconnectAtOnce = true;
  };

  const plan = (delayMs: number) => {
    cancel?.();
    cancel = undefined;
    if (stopped) return;
    if (delayMs > 0) {
      cancel = schedule(() => void renewNow(), delayMs);
      return;
    }
    // Retry at once: on the next turn, not through a timer.
    const now = { cancelled: false };
    cancel = () => {
      now.cancelled = true;
    };
    queueMicrotask(() => {
      if (!now.cancelled && !stopped) void renewNow();
    });
  };

  const renewNow = (): Promise<void> => {
    if (inFlight) return attempt;
    // A renewal asked for now replaces the planned one (which may be the timer that called this).
    cancel?.();
    cancel = undefined;
    inFlight = true;
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

  const renew = async (): Promise<void> => {
    const started = options.clock.now();
    try {
      const c = await requestCredentials();
      const now = options.clock.now();
      // NaN, a past time or one about to come would fail the next connect (or AUTH): never used.
      if (!Number.isFinite(c.expiresAt) || c.expiresAt - now < minValidityMs) {
        throw new Error(`the token came back expired or about to expire (expiry ${String(c.expiresAt)})`);
      }
      await apply({ ...c, expiresAt: Math.min(c.expiresAt, now + MAX_LIFETIME_MS) });
      failuresInARow = 0;
      inFlight = false;
      settleWaiters();
      const left = expiresAt - now;
      // A token shorter-lived than the renewal margin is renewed at half its life, not in a loop.
      plan(Math.max(1_000, left > 2 * renewBeforeMs ? left - renewBeforeMs : left / 2));
    } catch (error) {
      failuresInARow++;
      inFlight = false;
      lastFailure = sanitised(error);
      // Every failure of the schedule is logged, then once a minute (every 12th 5-second retry).
      if (!givenUp() || failuresInARow % 12 === 0) {
        logger.warn(`redis credentials not renewed (will retry): ${lastFailure}`);
      }
      if (givenUp()) settleWaiters(credentialsError());
      // The delay counts from the request's start: a request that hung its bound is retried at once.
      const spent = options.clock.now() - started;
      plan(Math.max(0, credentialRetryDelayMs(failuresInARow, random) - spent));
      throw error;
    }
  };

  client.once('end', () => {
    stopped = true;
    cancel?.();
  });
  void renewNow();
  return {
    credentialsReady: () => {
      if (usable()) return Promise.resolve();
      if (givenUp()) return Promise.reject(credentialsError());
      return new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject });
      });
    },
    renewNow,
    stop() {
      stopped = true;
      cancel?.();
    },
  };
}
