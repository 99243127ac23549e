import { TableClient } from '@azure/data-tables';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { endpointPort, type FaultProxy, startFaultProxy, withEndpointPort } from '../../sim/net/faultProxy';
import { type RedisService, startRedis } from '../../sim/services/redis';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { makeTableBreakerStore } from '../../src/breaker/tableBreakerStore';
import { T0, testPolicy, uniqueName } from '../breaker/breakerStoreFixture';
import { batch, breakerStores, harness } from './sharedBreakerFixture';

const { stores, redisStore } = breakerStores();

describe('processing while the breaker store is down (G6)', () => {
  let redis: RedisService;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  const event = (client: Redis, name: 'ready' | 'reconnecting') =>
    new Promise<void>((resolve) => {
      client.once(name, () => {
        resolve();
      });
    });

  it('Redis stopped: healthy events processed, failures dead-lettered, outage logged once per interval', async () => {
    const client = createBreakerRedis(redis.url);
    const store = redisStore(uniqueName('down'), client);
    const h = harness(store);
    await h.process(batch(3, [1]), h.context); // connected and recording
    expect(h.gate.health().ok).toBe(true);

    const lost = event(client, 'reconnecting');
    await redis.stop();
    await lost;
    for (let i = 1; i <= 3; i++) {
      h.clock.advance(1_000);
      const result = await h.process(batch(4, [0, 3], i * 10), h.context);
      expect(result).toMatchObject({ processed: 2, deadLettered: 2 });
    }
    expect(h.deadLetters.letters).toHaveLength(1 + 6);
    expect(h.sink.written).toHaveLength(2 + 6);
    expect(h.gateLogger.errors).toHaveLength(1);
    expect(h.gate.health()).toMatchObject({ ok: false, since: T0 + 1_000 });

    h.clock.advance(60_000);
    await h.process(batch(2, [1], 50), h.context);
    expect(h.gateLogger.errors).toHaveLength(2);

    const back = event(client, 'ready');
    redis = await startRedis(redis.port);
    await back;
    h.clock.advance(1_000);
    expect(await h.process(batch(2, [1], 60), h.context)).toMatchObject({ processed: 1, deadLettered: 1 });
    expect(h.gate.health().ok).toBe(true);
    expect(h.gateLogger.infos.some((l) => l.includes('reachable again'))).toBe(true);
    expect(h.gateLogger.errors).toHaveLength(2);
  });

  it('Redis stopped while the downstream is down: the batch is still held, nothing dead-lettered', async () => {
    const client = createBreakerRedis(redis.url);
    const store = redisStore(uniqueName('both'), client);
    const h = harness(store);
    await h.process(batch(1, [], 90), h.context); // connected
    const lost = event(client, 'reconnecting');
    await redis.stop();
    await lost;
    h.clock.advance(1_000);
    const everyone = Array.from({ length: 5 }, (_, i) => i);
    const error = await h.process(batch(5, everyone, 100), h.context).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BATCH_HELD', reason: 'outage' });
    expect(h.deadLetters.letters).toEqual([]);
    expect(h.gate.health().ok).toBe(false);
    const back = event(client, 'ready');
    redis = await startRedis(redis.port);
    await back;
  });

  it('Table unreachable (503): healthy events processed, failures dead-lettered, outage in health', async () => {
    const connection = inject('storageConnectionString');
    const proxy: FaultProxy = await startFaultProxy(endpointPort(connection, 'TableEndpoint'));
    try {
      const tableName = `Down${Math.random().toString(36).slice(2, 8)}`;
      const table = TableClient.fromConnectionString(
        withEndpointPort(connection, 'TableEndpoint', proxy.port),
        tableName,
        { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } },
      );
      const store = makeTableBreakerStore({ table, name: uniqueName('down'), policy: testPolicy });
      stores.push(store);
      const h = harness(store);
      proxy.setRule(({ url }) => (url.includes(tableName) || url.includes('Tables') ? 503 : undefined));
      for (let i = 0; i < 3; i++) {
        h.clock.advance(1_000);
        expect(await h.process(batch(3, [2], i * 10), h.context)).toMatchObject({
          processed: 2,
          deadLettered: 1,
        });
      }
      expect(h.gateLogger.errors).toHaveLength(1);
      expect(h.gate.health()).toMatchObject({ ok: false });
      proxy.setRule(undefined);
      h.clock.advance(1_000);
      expect(await h.process(batch(3, [2], 40), h.context)).toMatchObject({ processed: 2, deadLettered: 1 });
      expect(h.gate.health().ok).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
