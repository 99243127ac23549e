import type { Redis } from 'ioredis';
import { afterAll, inject } from 'vitest';

import type { BreakerStore } from '../../src/breaker/breakerStore';
import { makeRedisBreakerStore } from '../../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../../src/breaker/redisClient';
import { makeStoreBreakerGate, type StoreBreakerGate } from '../../src/breaker/storeBreakerGate';
import type { DeadLetter, DeadLetterStore } from '../../src/deadLetters/deadLetter';
import { silentLogger } from '../../src/kernel/logger';
import { type BatchContext, makeBatchProcessor } from '../../src/processing/batchProcessor';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { TransientSinkError } from '../../src/sinks/errors';
import { T0, testPolicy, uniqueName } from '../breaker/breakerStoreFixture';
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
export const batch = (size: number, failing: readonly number[] = [], first = 0) =>
  Array.from({ length: size }, (_, i) =>
    receivedEvent(jsonBody(reading({ homeId: failing.includes(i) ? DOWN : `home-${i}` })), first + i),
  );

export function harness(store: BreakerStore, clock = manualClock()) {
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

/**
 * The breaker stores a test file opens, closed after its tests (call at the top of the file), and a
 * Redis store on the run's Redis with the test policy (threshold 5).
 */
export function breakerStores() {
  const redisUrl = inject('redisUrl');
  const stores: BreakerStore[] = [];
  afterAll(() => Promise.all(stores.map((s) => s.close())));
  const redisStore = (name = uniqueName('proc'), redis: Redis = createBreakerRedis(redisUrl)) => {
    const store = makeRedisBreakerStore({ redis, name, policy: testPolicy }); // threshold 5
    stores.push(store);
    return store;
  };
  return { stores, redisStore };
}
