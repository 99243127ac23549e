import { RestError } from '@azure/core-rest-pipeline';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import type { ActivitySink } from '../../src/processing/activitySink';
import { type BatchContext, makeBatchProcessor } from '../../src/processing/batchProcessor';
import { makeBlobQueueDeadLetterStore } from '../../src/processing/blobQueueDeadLetterStore';
import type { BreakerGate } from '../../src/processing/breakerGate';
import type { FailureSample } from '../../src/kernel/failureSample';
import type { Ordering } from '../../src/processing/ordering';
import type { ReceivedEvent } from '../../src/processing/receivedEvent';
import { readingVersion } from '../../src/processing/homeActivityTableSink';
import type { SensorReading } from '../../src/processing/sensorReading';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

// Issue 15: a batch is written concurrently across keys, strictly in sequence order within a key, and
// a failure stops only its own key.

let env: Record<string, string>;
beforeAll(() => {
  env = testAppEnv('by-key');
});
const queue = () =>
  QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(env.DEAD_LETTER_QUEUE!);
const deadLetters = () =>
  makeBlobQueueDeadLetterStore(
    BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
      env.DEAD_LETTER_CONTAINER!,
    ),
    queue(),
  );
async function drain() {
  const q = queue();
  await q.createIfNotExists();
  const { receivedMessageItems } = await q.receiveMessages({ numberOfMessages: 32 });
  await Promise.all(receivedMessageItems.map((m) => q.deleteMessage(m.messageId, m.popReceipt)));
  return receivedMessageItems
    .map(
      (m) =>
        JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as {
          sequenceNumber: number;
          reason: string;
        },
    )
    .sort((a, b) => a.sequenceNumber - b.sequenceNumber)
    .map((m) => [m.sequenceNumber, m.reason]);
}

/** mulberry32: a small seeded generator, so every run interleaves the writes the same way. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A downstream keyed by sensor that answers each call after a random number of event-loop turns (no
 * real time), records arrival order per key and the most calls in flight at once.
 */
function recordingSink(seed: number, fail: (r: SensorReading, e: ReceivedEvent) => Error | undefined) {
  const random = seeded(seed);
  const arrived = new Map<string, number[]>();
  let inFlight = 0;
  let maxInFlight = 0;
  const sink: ActivitySink = {
    async write(r, e) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const list = arrived.get(r.sensorId) ?? [];
      arrived.set(r.sensorId, [...list, e.sequenceNumber ?? -1]);
      for (let turns = Math.floor(random() * 8); turns > 0; turns--)
        await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const error = fail(r, e);
      if (error) throw error;
      return 'applied';
    },
    probe: () => Promise.resolve(),
    orderingKey: (r) => r.sensorId,
  };
  return { sink, arrived, maxInFlight: () => maxInFlight };
}

function recordingGate() {
  const recorded: FailureSample[][] = [];
  const gate: BreakerGate = {
    check: () => Promise.resolve({ open: false, tripId: undefined }),
    recordFailures: (failures) => {
      recorded.push([...failures]);
      return Promise.resolve({ open: false, tripId: undefined, tripped: false, failuresInWindow: 0 });
    },
  };
  return { gate, recorded };
}

const context = (rerun = 0): BatchContext => ({
  invocationId: 'inv',
  finalAttempt: false,
  rerun,
  logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
});
const processor = (sink: ActivitySink, gate: BreakerGate, ordering: Ordering) =>
  makeBatchProcessor({
    functionName: 'ProcessSensorEvents',
    sink,
    deadLetters: deadLetters(),
    breaker: gate,
    clock: { now: () => 0 },
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    batchDeadlineMs: 60_000,
    outage: { policy: 'hold', isolateAfterReruns: 3, failFastAfter: 3 },
    ordering,
  });
/** `n` events over `keys` sensors, round robin, in sequence order. */
const batchOf = (n: number, keys: number) =>
  Array.from({ length: n }, (_, i) => receivedEvent(jsonBody(reading({ sensorId: `s${i % keys}` })), i));
const sequencesOf = (n: number, keys: number, key: number) =>
  Array.from({ length: n }, (_, i) => i).filter((i) => i % keys === key);

describe('ordering by key inside a batch', () => {
  it.each([1, 2, 3])('writes each key in sequence order under random delays (seed %i)', async (seed) => {
    const { sink, arrived, maxInFlight } = recordingSink(seed, () => undefined);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 8 })(
      batchOf(200, 20),
      context(),
    );
    expect(result.processed).toBe(200);
    for (let key = 0; key < 20; key++) expect(arrived.get(`s${key}`)).toEqual(sequencesOf(200, 20, key));
    expect(maxInFlight()).toBe(8);
  });

  it.each([1, 3, 16])('never has more than %i calls in flight', async (concurrency) => {
    const { sink, maxInFlight } = recordingSink(7, () => undefined);
    await processor(sink, recordingGate().gate, { mode: 'key', concurrency })(batchOf(100, 50), context());
    expect(maxInFlight()).toBe(concurrency);
  });

  it('an outage-like failure stops only its own key; it and the rest of its key are isolated in order', async () => {
    await drain();
    // Sequence 23 (key s3) always answers 503; every other event is accepted.
    const bad = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 23 ? new RestError('unavailable', { statusCode: 503 }) : undefined;
    for (let rerun = 0; rerun <= 3; rerun++) {
      const { sink, arrived } = recordingSink(rerun, bad);
      const { gate, recorded } = recordingGate();
      const run = processor(sink, gate, { mode: 'key', concurrency: 4 })(batchOf(100, 10), context(rerun));
      if (rerun < 3) await expect(run).rejects.toMatchObject({ code: 'BATCH_HELD' });
      else await expect(run).resolves.toMatchObject({ processed: 100 - 8, deadLettered: 8 });
      // Key s3 reached the sink up to the failing event (tried twice) and never past it; others whole.
      expect(arrived.get('s3')).toEqual([3, 13, 23, 23]);
      for (const key of [0, 1, 2, 4, 5, 6, 7, 8, 9])
        expect(arrived.get(`s${key}`)).toEqual(sequencesOf(100, 10, key));
      // One bad event counts once, not once per later reading of its key.
      expect(recorded.flat().map((s) => s.eventKey)).toEqual(['p0-s23']);
    }
    expect(await drain()).toEqual([23, 33, 43, 53, 63, 73, 83, 93].map((s) => [s, 'isolated']));
  });

  it('partition ordering writes one event at a time, in batch order', async () => {
    const { sink, arrived, maxInFlight } = recordingSink(5, () => undefined);
    await processor(sink, recordingGate().gate, { mode: 'partition', concurrency: 16 })(
      batchOf(60, 6),
      context(),
    );
    expect(maxInFlight()).toBe(1);
    for (let key = 0; key < 6; key++) expect(arrived.get(`s${key}`)).toEqual(sequencesOf(60, 6, key));
  });
});

/** The recording sink, declaring newest wins by version (as both sample sinks do). */
function versionedSink(fail: (r: SensorReading, e: ReceivedEvent) => Error | undefined) {
  const recording = recordingSink(11, fail);
  recording.sink.readingVersion = readingVersion;
  return recording;
}
/** `perKey` readings of each of `keys` sensors, round robin, each newer than the one before. */
const newerAndNewer = (perKey: number, keys: number) =>
  Array.from({ length: perKey * keys }, (_, i) =>
    receivedEvent(
      jsonBody(
        reading({
          sensorId: `s${i % keys}`,
          occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        }),
      ),
      i,
    ),
  );

describe('readings superseded inside a batch', () => {
  it('writes only the newest reading of each key and counts the others as processed', async () => {
    const { sink, arrived } = versionedSink(() => undefined);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(
      newerAndNewer(5, 4),
      context(),
    );
    expect(result).toMatchObject({ processed: 20, deadLettered: 0 });
    for (let key = 0; key < 4; key++) expect(arrived.get(`s${key}`)).toEqual([16 + key]);
    const superseded = result.outcomes.filter(
      (o) => o.status === 'processed' && o.supersededBy !== undefined,
    );
    expect(superseded.map((o) => o.event.sequenceNumber)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(superseded.every((o) => o.status === 'processed' && !o.applied)).toBe(true);
  });

  it('still writes an older reading that comes after a newer one in sequence order', async () => {
    const { sink, arrived } = versionedSink(() => undefined);
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    // Sequence 0 is the newest reading; 1 and 2 arrive later but are older, 2 newer than 1.
    const events = [at(9), at(3), at(5)].map((occurredAt, i) =>
      receivedEvent(jsonBody(reading({ sensorId: 's0', occurredAt })), i),
    );
    await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(events, context());
    // 1 is superseded by 2; 0 and 2 are both newest of what follows them and go in sequence order.
    expect(arrived.get('s0')).toEqual([0, 2]);
  });

  it('holds the readings the newest superseded when the newest fails outage-like', async () => {
    const down = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 13 ? new RestError('unavailable', { statusCode: 503 }) : undefined;
    const { sink, arrived } = versionedSink(down);
    const run = processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 });
    const error = await run(newerAndNewer(4, 4), context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BATCH_HELD' });
    // Key s1's newest (13) was tried twice and failed; nothing older of s1 was reported processed.
    expect(arrived.get('s1')).toEqual([13, 13]);
  });

  it('dead-letters the readings a failing newest superseded with it, in order, once isolated', async () => {
    await drain();
    const down = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 13 ? new RestError('unavailable', { statusCode: 503 }) : undefined;
    const { sink } = versionedSink(down);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(
      newerAndNewer(4, 4),
      context(3),
    );
    expect(result).toMatchObject({ processed: 12, deadLettered: 4 });
    expect(await drain()).toEqual([1, 5, 9, 13].map((s) => [s, 'isolated']));
  });

  it('writes the next newest when the newest is refused, so the row still gets what it would have', async () => {
    await drain();
    const refused = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 14 ? new RestError('bad reading', { statusCode: 400 }) : undefined;
    const { sink, arrived } = versionedSink(refused);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(
      newerAndNewer(4, 4),
      context(),
    );
    expect(result).toMatchObject({ processed: 15, deadLettered: 1 });
    expect(arrived.get('s2')).toEqual([14, 10]);
    expect(await drain()).toEqual([[14, 'failed']]);
  });

  it('partition ordering writes every reading, superseded or not', async () => {
    const { sink, arrived } = versionedSink(() => undefined);
    await processor(sink, recordingGate().gate, { mode: 'partition', concurrency: 16 })(
      newerAndNewer(3, 2),
      context(),
    );
    expect(arrived.get('s0')).toEqual([0, 2, 4]);
  });
});

describe('keys of one write group', () => {
  it('are started together, so the sink can write them as one', async () => {
    const random = seeded(3);
    const inFlight = new Map<string, number>();
    const mostAtOnce = new Map<string, number>();
    let total = 0;
    let most = 0;
    const sink: ActivitySink = {
      async write(r) {
        const now = (inFlight.get(r.homeId) ?? 0) + 1;
        inFlight.set(r.homeId, now);
        mostAtOnce.set(r.homeId, Math.max(mostAtOnce.get(r.homeId) ?? 0, now));
        most = Math.max(most, ++total);
        for (let turns = 1 + Math.floor(random() * 8); turns > 0; turns--)
          await new Promise((resolve) => setImmediate(resolve));
        inFlight.set(r.homeId, now - 1);
        total--;
        return 'applied';
      },
      probe: () => Promise.resolve(),
      orderingKey: (r) => `${r.homeId}/${r.sensorId}`,
      writeGroup: (r) => r.homeId,
    };
    // 30 homes with 3 sensors each, interleaved as a hub partition delivers them.
    const events = Array.from({ length: 90 }, (_, i) =>
      receivedEvent(jsonBody(reading({ homeId: `h${i % 30}`, sensorId: `s${Math.floor(i / 30)}` })), i),
    );
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 16 })(
      events,
      context(),
    );
    expect(result.processed).toBe(90);
    expect([...mostAtOnce.values()]).toEqual(Array.from({ length: 30 }, () => 3));
    expect(most).toBeLessThanOrEqual(16);
  });
});
