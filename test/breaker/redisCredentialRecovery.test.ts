/**
 * How fast the store answers again when the Entra token provider misbehaves, in virtual seconds. A local
 * redis-server ACL user stands for the Entra identity and its password for the token: an expired token
 * is a password the server no longer accepts, and at expiry the server drops the connection (as Azure
 * Managed Redis does when a connection's token expires).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import type { RedisCredentials } from '../../src/breaker/redisCredentials';
import { failures, T0, testPolicy, uniqueName } from './breakerStoreFixture';
import { secondsUntilAnswered, virtualTimers } from './virtualTimers';

const url = inject('redisUrl');
const admin = new Redis(url);
const users: string[] = [];
afterAll(async () => {
  for (const user of users) await admin.acl('DELUSER', user);
  await admin.quit();
});

const HOUR = 3_600_000;
const hang = () => new Promise<never>(() => undefined);

/** An ACL user standing for the identity; `token` is the one password it accepts. */
async function identity(token: string): Promise<string> {
  const user = uniqueName('entra');
  users.push(user);
  await admin.acl('SETUSER', user, 'on', `>${token}`, '~breakwater:*', '+@all');
  return user;
}

/** A store over Entra-style credentials from `provider`, on virtual time (no jitter). */
function storeWith(provider: () => Promise<RedisCredentials>, timers: ReturnType<typeof virtualTimers>) {
  const redis = createBreakerRedis(url, {
    auth: {
      credentials: provider,
      clock: timers.clock,
      schedule: timers.schedule,
      random: () => 0,
      logger: { log: () => undefined, error: () => undefined, warn: () => undefined },
    },
  });
  // A short real wait per call, so a probe that cannot answer fails fast and virtual time moves on.
  return makeRedisBreakerStore({ redis, name: uniqueName('rec'), policy: testPolicy, readyWaitMs: 200 });
}

describe('Redis over Entra ID recovers at once from a misbehaving token provider', () => {
  it('a provider that throws once is asked again at once: the store answers at 0 s (was 15 s)', async () => {
    const timers = virtualTimers(T0);
    const user = await identity('good-token-0123456789');
    let calls = 0;
    const store = storeWith(() => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('identity endpoint unavailable'));
      return Promise.resolve({ username: user, password: 'good-token-0123456789', expiresAt: T0 + HOUR });
    }, timers);
    expect(await secondsUntilAnswered(timers, () => store.getState())).toBe(0);
    expect(calls).toBe(2);
    expect((await store.record(failures(1), timers.clock.now())).failuresInWindow).toBe(1);
    await store.close();
  });

  it('an expired token, then one about to expire, are never used but replaced at once and after 0.5 s: the store answers at 0.5 s (was not within 60 s)', async () => {
    const timers = virtualTimers(T0);
    const user = await identity('fresh-token-0123456789');
    const sent: string[] = [];
    const expired = { username: user, password: 'expired-token-0123456789', expiresAt: T0 - 1_000 };
    const fresh = { username: user, password: 'fresh-token-0123456789', expiresAt: T0 + HOUR };
    // The first answer is already expired, the second expires within seconds: neither is usable.
    const answers = [expired, { ...expired, expiresAt: T0 + 2_000 }, fresh];
    const store = storeWith(() => {
      const next = answers.shift() ?? fresh;
      sent.push(next.password);
      return Promise.resolve(next);
    }, timers);
    expect(await secondsUntilAnswered(timers, () => store.getState())).toBe(0.5);
    expect(sent).toHaveLength(3);
    // Never sent: the server logged no refused AUTH for this user.
    const refused = ((await admin.call('ACL', 'LOG')) as unknown[][]).filter((entry) =>
      entry.some((field) => field === user),
    );
    expect(refused).toEqual([]);
    expect((await store.record(failures(1), timers.clock.now())).failuresInWindow).toBe(1);
    await store.close();
  });

  it('a first token request that hangs is given up after 5 s and retried at once: answers at 5 s (was > 35 s)', async () => {
    const timers = virtualTimers(T0);
    const user = await identity('late-token-0123456789');
    let calls = 0;
    const store = storeWith(() => {
      calls++;
      if (calls === 1) return hang();
      return Promise.resolve({ username: user, password: 'late-token-0123456789', expiresAt: T0 + HOUR });
    }, timers);
    expect(await secondsUntilAnswered(timers, () => store.getState())).toBe(5);
    expect(calls).toBe(2);
    expect((await store.record(failures(1), timers.clock.now())).failuresInWindow).toBe(1);
    await store.close();
  });

  it('a renewal that hangs past the expiry: the store answers within the 5 s request bound of the provider answering again (was not within 60 s)', async () => {
    const timers = virtualTimers(T0);
    const user = await identity('token-one-0123456789');
    let answering = true;
    let token = 'token-one-0123456789';
    const store = storeWith(
      () =>
        answering
          ? Promise.resolve({ username: user, password: token, expiresAt: timers.clock.now() + HOUR })
          : hang(),
      timers,
    );
    expect((await store.record(failures(1), T0)).failuresInWindow).toBe(1);

    // The provider stops answering before the renewal (planned 5 minutes before expiry).
    await timers.advance(50 * 60_000);
    answering = false;
    await timers.advance(10 * 60_000);
    // The token expires: the server refuses it and drops the connection.
    await admin.acl('SETUSER', user, '<token-one-0123456789', '>token-two-0123456789');
    await admin.client('KILL', 'USER', user);
    await timers.advance(2 * 60_000 + 2_000);
    await expect(store.getState()).rejects.toThrow();

    // The provider answers again, with a new token.
    token = 'token-two-0123456789';
    answering = true;
    const seconds = await secondsUntilAnswered(timers, () => store.getState());
    expect(seconds).toBeLessThanOrEqual(5);
    expect(seconds).toBe(3); // the hung request started 2 s before ran out its 5 s bound
    expect((await store.record(failures(1), timers.clock.now())).failuresInWindow).toBe(1);
    await store.close();
  });
});
