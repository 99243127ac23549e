import { RestError } from '@azure/core-rest-pipeline';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import { alwaysClosedGate, type BreakerGate } from '../../src/breaker/breakerGate';
import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import { PoisonEventError } from '../../src/hub/errors';
import type { SensorReading } from '../../src/hub/sensorReading';
import { type BatchContext, makeBatchProcessor } from '../../src/processing/batchProcessor';
import { CircuitOpenError, DeadLetterWriteError } from '../../src/processing/errors';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

/** A downstream double: records what reached it, fails on command. The real Table sink has its own tests. */
function scriptedSink(fail: (r: SensorReading) => Error | undefined = () => undefined) {
  const written: string[] = [];
  let calls = 0;
  const sink: ActivitySink = {
    write: (r) => {
      calls++;
      const error = fail(r);
      if (error) return Promise.reject(error);
      written.push(`${r.homeId}/${r.sensorId}`);
      return Promise.resolve('applied');
    },
    probe: () => Promise.resolve(),
  };
  return { sink, written, calls: () => calls };
}

let env: Record<string, string>;
const deadLetters = () =>
  makeBlobQueueDeadLetterStore(
    BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
      env.DEAD_LETTER_CONTAINER!,
    ),
    QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(env.DEAD_LETTER_QUEUE!),
  );
async function drain() {
  const q = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(
    env.DEAD_LETTER_QUEUE!,
  );
  const { receivedMessageItems } = await q.receiveMessages({ numberOfMessages: 32 });
  await Promise.all(receivedMessageItems.map((m) => q.deleteMessage(m.messageId, m.popReceipt)));
  return receivedMessageItems.map(
    (m) =>
      JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as {
        sequenceNumber: number;
        reason: string;
        attempts: number;
      },
  );
}

beforeAll(() => {
  env = testAppEnv('proc');
});

const logs: string[] = [];
const context = (overrides: Partial<BatchContext> = {}): BatchContext => ({
  invocationId: 'inv',
  finalAttempt: false,
  logger: {
    log: (m) => logs.push(String(m)),
    warn: (m) => logs.push(String(m)),
    error: (m) => logs.push(String(m)),
  },
  ...overrides,
});
const deps = (sink: ActivitySink, overrides: Partial<Parameters<typeof makeBatchProcessor>[0]> = {}) => ({
  functionName: 'ProcessSensorEvents',
  sink,
  deadLetters: deadLetters(),
  breaker: alwaysClosedGate,
  clock: { now: () => 0 },
  retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1 },
  batchDeadlineMs: 60_000,
  ...overrides,
});
const events = (...readings: (SensorReading | Buffer)[]) =>
  readings.map((r, i) => receivedEvent(Buffer.isBuffer(r) ? r : jsonBody(r), i));
const busy = () => new RestError('busy', { statusCode: 503 });

describe('the batch processor', () => {
  it('writes events to the sink in batch order', async () => {
    const { sink, written } = scriptedSink();
    const batch = events(...['a', 'b', 'c', 'd'].map((s) => reading({ sensorId: s })));
    const result = await makeBatchProcessor(deps(sink))(batch, context());
    expect(written).toEqual(['home-1/a', 'home-1/b', 'home-1/c', 'home-1/d']);
    expect(result).toMatchObject({ processed: 4, deadLettered: 0 });
  });

  it('dead-letters poison without touching the sink, and an event failing alone after the bounded retry', async () => {
    const { sink, written, calls } = scriptedSink((r) => (r.homeId === 'down' ? busy() : undefined));
    const batch = events(
      reading(),
      Buffer.from('garbage'),
      reading({ homeId: 'down' }),
      reading({ sensorId: 'x' }),
    );
    // Re-run 3: the 503 keeps hitting this event alone, so it is dead-lettered as isolated.
    const result = await makeBatchProcessor(deps(sink))(batch, context({ rerun: 3 }));
    expect(result).toMatchObject({ processed: 2, deadLettered: 2 });
    expect(written).toEqual(['home-1/door-1', 'home-1/x']);
    expect(calls()).toBe(2 + 3);
    expect((await drain()).map((m) => [m.sequenceNumber, m.reason, m.attempts]).sort()).toEqual([
      [1, 'poison', 0],
      [2, 'isolated', 3],
    ]);
  });

  it('does not retry an event the sink calls invalid, and dead-letters it as poison', async () => {
    const { sink, calls } = scriptedSink(() => new PoisonEventError('sink says no'));
    await makeBatchProcessor(deps(sink))(events(reading()), context());
    expect(calls()).toBe(1);
    expect((await drain()).map((m) => m.reason)).toEqual(['poison']);
  });

  it('stops trying once the batch deadline has passed and holds the rest, untried, for a re-run', async () => {
    let now = 0;
    const { sink, calls } = scriptedSink(() => {
      now += 40_000;
      return undefined;
    });
    const run = makeBatchProcessor(deps(sink, { clock: { now: () => now }, batchDeadlineMs: 60_000 }))(
      events(reading({ sensorId: 'a' }), reading({ sensorId: 'b' }), reading({ sensorId: 'c' })),
      context(),
    );
    await expect(run).rejects.toMatchObject({ code: 'BATCH_HELD' });
    expect(calls()).toBe(2);
    expect(await drain()).toEqual([]);
  });

  it('throws DeadLetterWriteError (the batch is held) when dead letters cannot be stored', async () => {
    const dead =
      'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:9/devstoreaccount1;QueueEndpoint=http://127.0.0.1:9/devstoreaccount1;';
    const unreachable = makeBlobQueueDeadLetterStore(
      BlobServiceClient.fromConnectionString(dead, { retryOptions: { maxTries: 1 } }).getContainerClient(
        'dl',
      ),
      QueueServiceClient.fromConnectionString(dead, { retryOptions: { maxTries: 1 } }).getQueueClient('dl'),
    );
    const { sink } = scriptedSink();
    await expect(
      makeBatchProcessor(deps(sink, { deadLetters: unreachable }))(events(Buffer.from('bad')), context()),
    ).rejects.toBeInstanceOf(DeadLetterWriteError);
  });

  describe('with the circuit open', () => {
    const openGate: BreakerGate = {
      check: () => Promise.resolve({ open: true, tripId: 't-1' }),
      recordFailures: () =>
        Promise.resolve({ open: true, tripId: 't-1', tripped: false, failuresInWindow: 101 }),
    };

    it('throws CircuitOpenError before touching any event', async () => {
      const { sink, calls } = scriptedSink();
      await expect(
        makeBatchProcessor(deps(sink, { breaker: openGate }))(events(reading()), context()),
      ).rejects.toBeInstanceOf(CircuitOpenError);
      expect(calls()).toBe(0);
      expect(await drain()).toEqual([]);
    });

    it('on the last run a finite host retry policy allows, dead-letters the whole batch instead of losing it', async () => {
      const { sink, calls } = scriptedSink();
      const result = await makeBatchProcessor(deps(sink, { breaker: openGate }))(
        events(reading(), reading()),
        context({ finalAttempt: true }),
      );
      expect(calls()).toBe(0);
      expect(result).toMatchObject({ processed: 0, deadLettered: 2 });
      expect((await drain()).map((m) => m.reason)).toEqual(['retries-exhausted', 'retries-exhausted']);
    });
  });

  it('calls the breaker-tripped seam once when its failures trip the breaker, and holds the batch', async () => {
    const trips: string[] = [];
    const trippingGate: BreakerGate = {
      check: () => Promise.resolve({ open: false, tripId: undefined }),
      recordFailures: () =>
        Promise.resolve({ open: true, tripId: 't-9', tripped: true, failuresInWindow: 101 }),
    };
    const { sink } = scriptedSink(() => busy());
    const run = makeBatchProcessor(deps(sink, { breaker: trippingGate }))(
      events(reading()),
      context({
        onTripped: (trip) => {
          trips.push(trip.tripId);
          return Promise.reject(new Error('durable client unavailable'));
        },
      }),
    );
    await expect(run).rejects.toBeInstanceOf(CircuitOpenError);
    expect(trips).toEqual(['t-9']);
    expect(logs.some((l) => l.includes('could not start the breaker orchestration for trip t-9'))).toBe(true);
    expect(await drain()).toEqual([]);
  });
});
