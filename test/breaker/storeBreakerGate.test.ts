import { afterAll, describe, expect, inject, it } from 'vitest';

import type { BreakerStore } from '../../src/breaker/breakerStore';
import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { makeStoreBreakerGate } from '../../src/breaker/storeBreakerGate';
import { failures, T0, testPolicy, uniqueName } from './breakerStoreFixture';

const url = inject('redisUrl');
const opened: BreakerStore[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

const redisStore = (name: string) => {
  const store = makeRedisBreakerStore({ redis: createBreakerRedis(url), name, policy: testPolicy });
  opened.push(store);
  return store;
};

function manualClock(start = T0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function recordingLogger() {
  const lines: { level: 'log' | 'warn' | 'error'; text: string }[] = [];
  const push =
    (level: 'log' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      lines.push({ level, text: args.map(String).join(' ') });
    };
  return { lines, log: push('log'), warn: push('warn'), error: push('error') };
}

/** Counts store reads so caching is observable; `lastRead` lets a test await a background read. */
function countingStore(store: BreakerStore) {
  const counts = { getState: 0, record: 0, lastRead: Promise.resolve() as Promise<unknown> };
  const wrapped: BreakerStore = {
    ...store,
    getState: () => {
      counts.getState++;
      const read = store.getState();
      counts.lastRead = read.catch(() => undefined);
      return read;
    },
    record: (f, now) => {
      counts.record++;
      return store.record(f, now);
    },
  };
  return { store: wrapped, counts };
}

/** A store that is down: every call rejects, as a refused connection would. */
function downStore(): BreakerStore & { up: boolean } {
  const fail = () =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' }));
  const healthy = {
    up: false,
    getState: () =>
      healthy.up ? Promise.resolve({ state: 'CLOSED' as const, tripId: undefined, since: 0 }) : fail(),
    record: () =>
      healthy.up
        ? Promise.resolve({
            failuresInWindow: 1,
            state: 'CLOSED' as const,
            tripped: false,
            tripId: undefined,
          })
        : fail(),
    transition: fail,
    openManually: fail,
    resetWindow: fail,
    windowBuckets: fail,
    history: fail,
    trip: fail,
    updateTrip: fail,
    close: () => Promise.resolve(),
  };
  return healthy;
}

describe('store-backed breaker gate', () => {
  it('reads the state at most once per cache TTL per instance, refreshing ahead in the background', async () => {
    const name = uniqueName('gate');
    const { store, counts } = countingStore(redisStore(name));
    const clock = manualClock();
    const gate = makeStoreBreakerGate({ store, clock, stateCacheMs: 1_000, logger: recordingLogger() });
    expect(await gate.check()).toEqual({ open: false, tripId: undefined }); // read 1, waited for
    const tripId = await redisStore(name).openManually('drill', T0);
    clock.advance(499);
    expect(await gate.check()).toEqual({ open: false, tripId: undefined }); // fresh: no read
    expect(counts.getState).toBe(1);
    clock.advance(1); // half the TTL: served from the cache, read 2 starts in the background
    expect(await gate.check()).toEqual({ open: false, tripId: undefined });
    expect(counts.getState).toBe(2);
    await counts.lastRead;
    expect(await gate.check()).toEqual({ open: true, tripId });
    expect(counts.getState).toBe(2);
    clock.advance(1_000); // expired with no read in between: this check waits for read 3
    expect(await gate.check()).toEqual({ open: true, tripId });
    expect(counts.getState).toBe(3);
  });

  it('never serves a state older than the TTL: a store that changes between reads is seen within it (G4)', async () => {
    const name = uniqueName('g4');
    const { store, counts } = countingStore(redisStore(name));
    const clock = manualClock();
    const gate = makeStoreBreakerGate({ store, clock, stateCacheMs: 1_000, logger: recordingLogger() });
    expect(await gate.check()).toEqual({ open: false, tripId: undefined }); // read at T0
    const tripId = await redisStore(name).openManually('drill', T0);
    // Just past the TTL of the read (and well under twice it): the OPEN state must be what is served.
    clock.advance(1_001);
    expect(await gate.check()).toEqual({ open: true, tripId });
    expect(counts.getState).toBe(2);
    // And back: closed in the store, seen no later than one TTL after the read that saw it open.
    expect(await redisStore(name).transition('OPEN', 'CLOSED', tripId ?? '', T0 + 1_001)).toBe(true);
    clock.advance(1_000);
    expect(await gate.check()).toEqual({ open: false, tripId });
  });

  it('shares one read between concurrent checks', async () => {
    const { store, counts } = countingStore(redisStore(uniqueName('gate')));
    const gate = makeStoreBreakerGate({
      store,
      clock: manualClock(),
      stateCacheMs: 1_000,
      logger: recordingLogger(),
    });
    await Promise.all(Array.from({ length: 20 }, () => gate.check()));
    expect(counts.getState).toBe(1);
  });

  it('records in one round trip, reports the trip to one caller and refreshes the cache', async () => {
    const { store, counts } = countingStore(redisStore(uniqueName('gate')));
    const clock = manualClock();
    const gate = makeStoreBreakerGate({ store, clock, stateCacheMs: 1_000, logger: recordingLogger() });
    await gate.check();
    expect(await gate.recordFailures(failures(3))).toEqual({
      open: false,
      tripId: undefined,
      tripped: false,
      failuresInWindow: 3,
    });
    const trip = await gate.recordFailures(failures(3));
    expect(trip).toMatchObject({ open: true, tripped: true, failuresInWindow: 6 });
    expect(trip.tripId).toBeDefined();
    expect(await gate.recordFailures(failures(1))).toMatchObject({
      open: true,
      tripped: false,
      tripId: trip.tripId,
    });
    expect(counts.record).toBe(3);
    expect(await gate.check()).toEqual({ open: true, tripId: trip.tripId });
    expect(counts.getState).toBe(1);
  });

  it('reports closed through an outage, logs it once per interval and exposes the health', async () => {
    const store = downStore();
    const clock = manualClock();
    const logger = recordingLogger();
    const gate = makeStoreBreakerGate({ store, clock, stateCacheMs: 0, logger, outageLogIntervalMs: 60_000 });
    expect(gate.health()).toMatchObject({ ok: true, since: undefined });
    for (let i = 0; i < 50; i++) {
      expect(await gate.check()).toEqual({ open: false, tripId: undefined });
      expect(await gate.recordFailures(failures(2))).toEqual({
        open: false,
        tripId: undefined,
        tripped: false,
        failuresInWindow: undefined,
      });
      clock.advance(1_000); // 50 s in all: inside one interval
    }
    expect(logger.lines.filter((l) => l.level === 'error')).toHaveLength(1);
    expect(logger.lines[0]?.text).toContain('ECONNREFUSED');
    expect(gate.health()).toEqual({
      ok: false,
      lastError: 'Error: connect ECONNREFUSED 127.0.0.1:6390',
      since: T0,
      failedCalls: 100,
    });
    clock.advance(10_000);
    await gate.check();
    expect(logger.lines.filter((l) => l.level === 'error')).toHaveLength(2);
    expect(logger.lines.filter((l) => l.level === 'error')[1]?.text).toContain(
      'still unavailable for 60000 ms: 100 more failed call(s)',
    );
    store.up = true;
    clock.advance(5_000);
    await gate.check();
    await gate.check();
    expect(logger.lines.filter((l) => l.level === 'log')).toHaveLength(1);
    expect(logger.lines.at(-1)?.text).toContain('reachable again after 65000 ms');
    expect(gate.health()).toMatchObject({ ok: true, since: T0 + 65_000, failedCalls: 0 });
  });

  it('treats a corrupt state like an outage: closed, surfaced in health', async () => {
    const { Redis } = await import('ioredis');
    const admin = new Redis(url);
    const name = uniqueName('gate');
    await admin.hset(`breakwater:{${name}}:state`, 'state', 'AJAR');
    await admin.quit();
    const gate = makeStoreBreakerGate({
      store: redisStore(name),
      clock: manualClock(),
      stateCacheMs: 1_000,
      logger: recordingLogger(),
    });
    expect(await gate.check()).toEqual({ open: false, tripId: undefined });
    expect(gate.health()).toMatchObject({
      ok: false,
      lastError: expect.stringContaining('BreakerStoreCorruptError') as unknown,
    });
  });
});
