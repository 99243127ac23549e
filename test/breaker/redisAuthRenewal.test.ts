/**
 * Expiring Redis credentials (REDIS_AUTH=entra works this way with Entra tokens): a local redis-server
 * ACL user whose password is rotated under a running client, while the breaker keeps counting.
 */
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { RedisCredentialsError } from '../../src/breaker/errors';
import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import type { RedisCredentials } from '../../src/breaker/redisCredentials';
import { failures, T0, testPolicy, uniqueName } from './breakerStoreFixture';

const url = inject('redisUrl');
const admin = new Redis(url);
const users: string[] = [];
afterAll(async () => {
  for (const user of users) await admin.acl('DELUSER', user);
  await admin.quit();
});

/** A fresh ACL user that may use the breaker's keys and scripts, with one password. */
async function aclUser(password: string): Promise<string> {
  const user = uniqueName('acl');
  users.push(user);
  await admin.acl('SETUSER', user, 'on', `>${password}`, '~breakwater:*', '+@all');
  return user;
}

/** Timers the test fires by hand: what was scheduled, and when. */
function manualScheduler() {
  const planned: { run: () => void; delayMs: number; cancelled: boolean }[] = [];
  return {
    planned,
    schedule: (run: () => void, delayMs: number) => {
      const entry = { run, delayMs, cancelled: false };
      planned.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
    live: () => planned.filter((p) => !p.cancelled),
  };
}

describe('Redis credentials renewed under a running client', () => {
  it('re-authenticates the live connection before expiry, reconnects with the new password, and keeps counting', async () => {
    let now = T0;
    let current = 'first-password-0123456789';
    const user = await aclUser(current);
    const fetched: string[] = [];
    const credentials = (): Promise<RedisCredentials> => {
      fetched.push(current);
      return Promise.resolve({ username: user, password: current, expiresAt: now + 60 * 60_000 });
    };
    const timers = manualScheduler();
    const redis = createBreakerRedis(url, {
      auth: { credentials, clock: { now: () => now }, schedule: timers.schedule, renewBeforeMs: 5 * 60_000 },
    });
    const name = uniqueName('rot');
    const store = makeRedisBreakerStore({ redis, name, policy: testPolicy });

    expect((await store.record(failures(2), T0)).failuresInWindow).toBe(2);
    const connectionId = await redis.client('ID');
    // Renewal planned 5 minutes before the hour's expiry.
    expect(timers.live().map((t) => t.delayMs)).toEqual([55 * 60_000]);

    // The password rotates: the old one stops working for new connections.
    now += 55 * 60_000;
    current = 'second-password-9876543210';
    await admin.acl('SETUSER', user, `>${current}`, '<first-password-0123456789');
    const probe = new Redis(url);
    await expect(probe.call('AUTH', user, 'first-password-0123456789')).rejects.toThrow(/WRONGPASS/);
    await probe.quit();

    timers.live()[0]?.run();
    await store.getState(); // the renewal's AUTH is queued before this on the same connection
    expect(fetched).toEqual(['first-password-0123456789', 'second-password-9876543210']);
    expect(await redis.client('ID')).toBe(connectionId); // same connection: never dropped
    expect((await store.record(failures(1), T0 + 1_000)).failuresInWindow).toBe(3);

    // A reconnect (the server dropped us) authenticates with the renewed password, not the original one.
    const ready = once(redis, 'ready');
    await admin.client('KILL', 'USER', user);
    await ready;
    expect(await redis.client('ID')).not.toBe(connectionId);
    expect((await store.record(failures(1), T0 + 2_000)).failuresInWindow).toBe(4);
    expect(timers.live().map((t) => t.delayMs)).toEqual([55 * 60_000]);
    const ended = once(redis, 'end');
    await store.close();
    await ended;
    expect(timers.live()).toEqual([]); // close() stops the renewal
  });

  it('a failed renewal keeps the connection and is retried at once, then after 0.5 s', async () => {
    let now = T0;
    const user = await aclUser('only-password-0123456789');
    let fail = false;
    const credentials = (): Promise<RedisCredentials> =>
      fail
        ? Promise.reject(new Error('identity endpoint unavailable'))
        : Promise.resolve({
            username: user,
            password: 'only-password-0123456789',
            expiresAt: now + 60 * 60_000,
          });
    const timers = manualScheduler();
    const warnings: string[] = [];
    const redis = createBreakerRedis(url, {
      auth: {
        credentials,
        clock: { now: () => now },
        schedule: timers.schedule,
        random: () => 0,
        logger: { log: () => undefined, error: () => undefined, warn: (m: string) => warnings.push(m) },
      },
    });
    const store = makeRedisBreakerStore({ redis, name: uniqueName('fail'), policy: testPolicy });
    expect((await store.record(failures(1), T0)).failuresInWindow).toBe(1);

    now += 55 * 60_000;
    fail = true;
    timers.live()[0]?.run();
    await store.getState();
    await new Promise((r) => setImmediate(r));
    // Two requests: the renewal and its immediate retry; the next waits half a second.
    expect(warnings).toEqual([
      expect.stringContaining('identity endpoint unavailable'),
      expect.stringContaining('identity endpoint unavailable'),
    ]);
    expect(timers.live().map((t) => t.delayMs)).toEqual([500]);
    expect((await store.record(failures(1), T0 + 1_000)).failuresInWindow).toBe(2);
    await store.close();
  });

  it('the first command waits for the first credentials instead of failing the connect', async () => {
    const user = await aclUser('slow-password-0123456789');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const redis = createBreakerRedis(url, {
      auth: {
        credentials: async () => {
          await gate;
          return { username: user, password: 'slow-password-0123456789', expiresAt: T0 + 3_600_000 };
        },
        clock: { now: () => T0 },
        schedule: manualScheduler().schedule,
      },
    });
    const store = makeRedisBreakerStore({ redis, name: uniqueName('slow'), policy: testPolicy });
    const first = store.record(failures(1), T0);
    release();
    expect((await first).failuresInWindow).toBe(1);
    await store.close();
  });
});

describe('Redis credentials: hung requests and bad expiry values', () => {
  it('a token request that hangs is given up after its 5 s bound and retried at once, then after 0.5 s', async () => {
    const now = T0;
    const user = await aclUser('late-password-0123456789');
    let calls = 0;
    const credentials = (): Promise<RedisCredentials> => {
      calls++;
      // The first two requests hang for good (an identity endpoint that never answers).
      if (calls <= 2) return new Promise<never>(() => undefined);
      return Promise.resolve({
        username: user,
        password: 'late-password-0123456789',
        expiresAt: now + 3_600_000,
      });
    };
    const timers = manualScheduler();
    const warnings: string[] = [];
    const redis = createBreakerRedis(url, {
      auth: {
        credentials,
        clock: { now: () => now },
        schedule: timers.schedule,
        random: () => 0,
        logger: { log: () => undefined, error: () => undefined, warn: (m: string) => warnings.push(m) },
      },
    });
    const store = makeRedisBreakerStore({ redis, name: uniqueName('hang'), policy: testPolicy });
    // The request's bound is a timer like any other.
    expect(timers.live().map((t) => t.delayMs)).toEqual([5_000]);
    timers.live()[0]?.run();
    await new Promise((r) => setImmediate(r));
    expect(warnings).toEqual([expect.stringContaining('no answer within 5 s')]);
    // Retried at once: the second request is out, with its own bound.
    expect(calls).toBe(2);
    expect(timers.live().map((t) => t.delayMs)).toEqual([5_000]);
    timers.live()[0]?.run();
    await new Promise((r) => setImmediate(r));
    expect(timers.live().map((t) => t.delayMs)).toEqual([500]);
    timers.live()[0]?.run(); // third attempt answers
    expect((await store.record(failures(1), T0)).failuresInWindow).toBe(1);
    expect(calls).toBe(3);
    await store.close();
  });

  it('an expiry of NaN or in the past is never used (asked again), one absurdly far ahead is capped at a day', async () => {
    for (const [expiresAt, expectedCalls, expectedRenewal] of [
      [Number.NaN, 2, 55 * 60_000],
      [T0 - 60_000, 2, 55 * 60_000],
      [T0 + 8_000 * 365 * 24 * 3_600_000, 1, 24 * 3_600_000 - 5 * 60_000],
    ] as const) {
      const user = await aclUser('odd-expiry-password-0123456789');
      const timers = manualScheduler();
      let calls = 0;
      const redis = createBreakerRedis(url, {
        auth: {
          credentials: () =>
            Promise.resolve({
              username: user,
              password: 'odd-expiry-password-0123456789',
              expiresAt: calls++ === 0 ? expiresAt : T0 + 3_600_000,
            }),
          clock: { now: () => T0 },
          schedule: timers.schedule,
          random: () => 0,
          logger: { log: () => undefined, error: () => undefined, warn: () => undefined },
        },
      });
      const store = makeRedisBreakerStore({ redis, name: uniqueName('exp'), policy: testPolicy });
      expect((await store.record(failures(1), T0)).failuresInWindow).toBe(1);
      expect(calls).toBe(expectedCalls);
      expect(timers.live().map((t) => t.delayMs)).toEqual([expectedRenewal]);
      await store.close();
    }
  });

  it('a provider that keeps failing: RedisCredentialsError, bounded and without secrets, retries every 5 s', async () => {
    const timers = manualScheduler();
    const secret = 'eyJhbGciOiJSUzI1NiJ9.c2VjcmV0.c2ln';
    const redis = createBreakerRedis(url, {
      auth: {
        credentials: () =>
          Promise.reject(
            new Error(`token request failed: Bearer ${secret}\nforged line ${'x'.repeat(5_000)}`),
          ),
        clock: { now: () => T0 },
        schedule: timers.schedule,
        random: () => 0,
        logger: { log: () => undefined, error: () => undefined, warn: () => undefined },
      },
    });
    const store = makeRedisBreakerStore({
      redis,
      name: uniqueName('keep'),
      policy: testPolicy,
      readyWaitMs: 200,
    });
    for (const delay of [500, 1_000, 2_000, 4_000, 5_000]) {
      await new Promise((r) => setImmediate(r));
      expect(timers.live().map((t) => t.delayMs)).toEqual([delay]);
      timers.live()[0]?.run();
    }
    await new Promise((r) => setImmediate(r));
    expect(timers.live().map((t) => t.delayMs)).toEqual([5_000]); // capped: no hot loop
    const error: unknown = await store.getState().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RedisCredentialsError);
    const message = (error as Error).message;
    expect(message).toContain('after 7 requests in a row');
    expect(message).not.toContain(secret);
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(400);
    await store.close();
  });
});
