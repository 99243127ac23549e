import { TableClient } from '@azure/data-tables';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import type { BreakerStore } from '../../src/breaker/breakerStore';
import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { makeStoreBreakerGate, type StoreBreakerGate } from '../../src/breaker/storeBreakerGate';
import { makeTableBreakerStore } from '../../src/breaker/tableBreakerStore';
import type { ActivitySink } from '../../src/processing/activitySink';
import { type BatchContext, makeBatchProcessor } from '../../src/processing/batchProcessor';
import type { DeadLetter, DeadLetterStore } from '../../src/processing/deadLetter';
import { isCircuitOpenError, TransientSinkError } from '../../src/processing/errors';
import { silentLogger } from '../../src/kernel/logger';
import { failures, T0, testPolicy, uniqueName } from '../breaker/breakerStoreFixture';
import { endpointPort, type FaultProxy, startFaultProxy, withEndpointPort } from '../../sim/net/faultProxy';
import { type RedisService, startRedis } from '../../sim/services/redis';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

const DOWN = 'home-down';

/** The downstream double: keeps what reached it, fails every write for DOWN with a transient error. */
function memorySink() {
  const written: string[] = [];
  const sink: ActivitySink = {
    write: (r, e) => {
      if (r.homeId === DOWN) return Promise.reject(new TransientSinkError('sink unavailable'));
      written.push(`s${e.sequenceNumber ?? '?'}`);
      return Promise.resolve('applied');
    },
    probe: () => Promise.resolve(),
  };
  return { sink, written };
}

function memoryDeadLetters() {
  const letters: DeadLetter[] = [];
  const store: DeadLetterStore = {
    write: (batch) => {
      letters.push(...batch);
      return Promise.resolve();
    },
  };
  return { store, letters };
}

function manualClock(start = T0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function recordingLogger() {
  const errors: string[] = [];
  const infos: string[] = [];
  return {
    errors,
    infos,
    log: (...a: unknown[]) => infos.push(a.map(String).join(' ')),
    warn: (...a: unknown[]) => infos.push(a.map(String).join(' ')),
    error: (...a: unknown[]) => errors.push(a.map(String).join(' ')),
  };
}

/** A batch whose events at `failing` positions belong to the home whose sink writes fail. */
const batch = (size: number, failing: readonly number[] = [], first = 0) =>
  Array.from({ length: size }, (_, i) =>
    receivedEvent(jsonBody(reading({ homeId: failing.includes(i) ? DOWN : `home-${i}` })), first + i),
  );

function harness(store: BreakerStore, clock = manualClock()) {
  const sink = memorySink();
  const deadLetters = memoryDeadLetters();
  const gateLogger = recordingLogger();
  const gate: StoreBreakerGate = makeStoreBreakerGate({
    store,
    clock,
    stateCacheMs: 1_000,
    logger: gateLogger,
    outageLogIntervalMs: 60_000,
  });
  const process = makeBatchProcessor({
    functionName: 'ProcessSensorEvents',
    sink: sink.sink,
    deadLetters: deadLetters.store,
    breaker: gate,
    clock,
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 },
    batchDeadlineMs: 10_000,
  });
  const trips: string[] = [];
  // Re-run 3 (ISOLATE_AFTER_RERUNS' default): DOWN's events fail alone while the others get through, so
  // they are dead-lettered as isolated; on earlier runs the batch would be held (test/processing/outageHold).
  const context: BatchContext = {
    invocationId: 'inv-1',
    logger: silentLogger,
    finalAttempt: false,
    rerun: 3,
    onTripped: (t) => {
      trips.push(t.tripId);
      return Promise.resolve();
    },
  };
  return { sink, deadLetters, gate, gateLogger, process, context, trips, clock };
}

const redisUrl = inject('redisUrl');
const stores: BreakerStore[] = [];
afterAll(() => Promise.all(stores.map((s) => s.close())));
const redisStore = (name = uniqueName('proc'), redis: Redis = createBreakerRedis(redisUrl)) => {
  const store = makeRedisBreakerStore({ redis, name, policy: testPolicy }); // threshold 5
  stores.push(store);
  return store;
};

describe('processing with the shared breaker (real gate, real Redis store)', () => {
  it('OPEN: throws CircuitOpenError before touching the sink or the dead letters', async () => {
    const store = redisStore();
    const tripId = await store.openManually('drill', T0);
    const h = harness(store);
    const error = await h.process(batch(5, [1]), h.context).catch((e: unknown) => e);
    expect(isCircuitOpenError(error)).toBe(true);
    expect(error).toMatchObject({ tripId });
    expect(h.sink.written).toEqual([]);
    expect(h.deadLetters.letters).toEqual([]);
  });

  it('failures crossing the threshold mid-batch: trips once, holds the batch, dead-letters nothing', async () => {
    const store = redisStore();
    await store.record(failures(4), T0); // another instance's failures: 4 of 5 allowed
    const h = harness(store);
    const error = await h.process(batch(6, [1, 3]), h.context).catch((e: unknown) => e);
    expect(isCircuitOpenError(error)).toBe(true);
    expect(h.deadLetters.letters).toEqual([]);
    expect(h.trips).toHaveLength(1);
    expect(await store.getState()).toMatchObject({ state: 'OPEN', tripId: h.trips[0] });
    // The re-run of the held batch stops at the gate: nothing written, nothing dead-lettered.
    const written = h.sink.written.length;
    expect(isCircuitOpenError(await h.process(batch(6, [1, 3]), h.context).catch((e: unknown) => e))).toBe(
      true,
    );
    expect(h.sink.written).toHaveLength(written);
    expect(h.trips).toHaveLength(1);
  });

  it('below the threshold: dead-letters the events failing alone and returns', async () => {
    const store = redisStore();
    const h = harness(store);
    const result = await h.process(batch(6, [2, 4]), h.context);
    expect(result).toMatchObject({ processed: 4, deadLettered: 2 });
    expect(h.deadLetters.letters.map((l) => [l.event.sequenceNumber, l.reason])).toEqual([
      [2, 'isolated'],
      [4, 'isolated'],
    ]);
    expect(h.sink.written).toEqual(['s0', 's1', 's3', 's5']);
    expect((await store.record([], T0)).failuresInWindow).toBe(2);
    expect(h.trips).toEqual([]);
  });

  it('HALF_OPEN (probation) lets batches through and re-trips above the probation threshold', async () => {
    const store = redisStore();
    const first = await store.openManually('drill', T0);
    await store.transition('OPEN', 'HALF_OPEN', first, T0);
    await store.resetWindow();
    const h = harness(store);
    expect(await h.process(batch(4, [1, 2]), h.context)).toMatchObject({ processed: 2, deadLettered: 2 });
    const error = await h.process(batch(3, [0], 10), h.context).catch((e: unknown) => e); // 3 > 2
    expect(isCircuitOpenError(error)).toBe(true);
    expect(h.trips).toHaveLength(1);
    expect(h.trips[0]).not.toBe(first);
    expect(h.deadLetters.letters).toHaveLength(2);
  });

  it('the happy path costs no store round trip beyond the cached state read', async () => {
    const store = redisStore();
    let records = 0;
    const h = harness({
      ...store,
      record: (f, now) => {
        records++;
        return store.record(f, now);
      },
    });
    for (let i = 0; i < 5; i++) await h.process(batch(10, [], i * 10), h.context);
    expect(records).toBe(0);
    expect(h.sink.written).toHaveLength(50);
  });
});

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
