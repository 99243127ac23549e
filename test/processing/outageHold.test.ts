import { RestError } from '@azure/core-rest-pipeline';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import type { BreakerGate } from '../../src/breaker/breakerGate';
import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import type { SensorReading } from '../../src/hub/sensorReading';
import type { FailureSample } from '../../src/kernel/failureSample';
import { type BatchContext, makeBatchProcessor } from '../../src/processing/batchProcessor';
import { drainSavedEvents } from '../../src/retention/drainSaved';
import { makeSavedEvents, MAX_SAVED_BLOB_BYTES, savedBlobName } from '../../src/retention/savedEvents';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

// An outage dead-letters nothing. Outage-like failures hold the batch (the host re-runs it
// behind the un-advanced checkpoint), a batch stops trying after a few in a row, and only an event that
// keeps failing while others get through is dead-lettered, after a bounded number of re-runs.

let env: Record<string, string>;
beforeAll(() => {
  env = testAppEnv('hold');
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
          partitionId: string;
          sequenceNumber: number;
          reason: string;
        },
    )
    .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
}

/** A downstream that answers `fail(reading)` (an error) or accepts the write; counts every call. */
function scriptedSink(fail: (r: SensorReading) => Error | undefined) {
  const written: string[] = [];
  let calls = 0;
  const sink: ActivitySink = {
    write: (r) => {
      calls++;
      const error = fail(r);
      if (error) return Promise.reject(error);
      written.push(r.sensorId);
      return Promise.resolve('applied');
    },
    probe: () => Promise.resolve(),
  };
  return { sink, written, calls: () => calls };
}

/** A CLOSED breaker that remembers what each batch reported. */
function recordingGate() {
  const recorded: FailureSample[][] = [];
  const gate: BreakerGate = {
    check: () => Promise.resolve({ open: false, tripId: undefined }),
    recordFailures: (failures) => {
      recorded.push([...failures]);
      return Promise.resolve({
        open: false,
        tripId: undefined,
        tripped: false,
        failuresInWindow: recorded.flat().length,
      });
    },
  };
  return { gate, recorded };
}

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
const MAX_ATTEMPTS = 2;
const processor = (sink: ActivitySink, gate: BreakerGate, nextRerunDelayMs?: (rerun: number) => number) =>
  makeBatchProcessor({
    ...(nextRerunDelayMs ? { nextRerunDelayMs } : {}),
    functionName: 'ProcessSensorEvents',
    sink,
    deadLetters: deadLetters(),
    breaker: gate,
    clock: { now: () => 0 },
    retry: { maxAttempts: MAX_ATTEMPTS, initialDelayMs: 1, maxDelayMs: 1 },
    batchDeadlineMs: 60_000,
    outage: { policy: 'hold', isolateAfterReruns: 3, failFastAfter: 3 },
  });
const batchOf = (n: number, partitionId = '0') =>
  Array.from({ length: n }, (_, i) =>
    receivedEvent(jsonBody(reading({ sensorId: `s${i}` })), i, partitionId),
  );
const unavailable = () => new RestError('downstream unavailable', { statusCode: 503 });
const held = { code: 'BATCH_HELD' };

describe('an outage holds the batch instead of dead-lettering it', () => {
  it('throws so the host re-runs the batch, dead-letters nothing, and records the failures', async () => {
    const { sink } = scriptedSink(() => unavailable());
    const { gate, recorded } = recordingGate();
    await expect(processor(sink, gate)(batchOf(10), context())).rejects.toMatchObject(held);
    expect(await drain()).toEqual([]);
    expect(recorded).toHaveLength(1);
  });

  it.each([
    ['HTTP 503', () => unavailable()],
    ['HTTP 429', () => new RestError('throttled', { statusCode: 429 })],
    ['HTTP 401', () => new RestError('token refused', { statusCode: 401 })],
    ['a network error', () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
  ])('holds on %s', async (_what, error) => {
    const { sink } = scriptedSink(() => error());
    await expect(processor(sink, recordingGate().gate)(batchOf(2), context())).rejects.toMatchObject(held);
    expect(await drain()).toEqual([]);
  });

  it('fails fast: after 3 outage-like failures in a row the rest of the batch is not tried', async () => {
    const { sink, calls } = scriptedSink(() => unavailable());
    await expect(processor(sink, recordingGate().gate)(batchOf(100), context())).rejects.toMatchObject(held);
    // The first event with its retries; the next two get one attempt each (the downstream is down).
    expect(calls()).toBe(MAX_ATTEMPTS + 1 + 1);
  });

  it('counts the untried events as failures, so the breaker sees the whole batch fail as before', async () => {
    const { sink } = scriptedSink(() => unavailable());
    const { gate, recorded } = recordingGate();
    await expect(processor(sink, gate)(batchOf(100), context())).rejects.toMatchObject(held);
    expect(recorded.flat()).toHaveLength(100);
    expect(new Set(recorded.flat().map((f) => f.eventKey)).size).toBe(100);
  });

  it('while nothing gets through, each held event counts once per second until the next re-run', async () => {
    const { sink } = scriptedSink(() => unavailable());
    const { gate, recorded } = recordingGate();
    const delays = (rerun: number) => Math.min(5_000 * 2 ** rerun, 30_000);
    const run = processor(sink, gate, delays);
    await expect(run(batchOf(10), context({ rerun: 0 }))).rejects.toMatchObject(held);
    await expect(run(batchOf(10), context({ rerun: 1 }))).rejects.toMatchObject(held);
    expect(recorded.map((r) => r.length)).toEqual([10 * 5, 10 * 10]);
    // The trip's sample (the stores keep the last few) still lists distinct events.
    expect(new Set(recorded[0]!.slice(-5).map((f) => f.eventKey)).size).toBe(5);
  });

  it('when the downstream took other writes, each failure counts once', async () => {
    const { sink } = scriptedSink((r) => (r.sensorId === 's4' ? unavailable() : undefined));
    const { gate, recorded } = recordingGate();
    await expect(
      processor(sink, gate, () => 30_000)(batchOf(10), context({ rerun: 0 })),
    ).rejects.toMatchObject(held);
    expect(recorded.map((r) => r.length)).toEqual([1]);
  });

  it('a success resets the run of failures: scattered failures do not stop the batch', async () => {
    const { sink, written } = scriptedSink((r) =>
      Number(r.sensorId.slice(1)) % 2 === 0 ? unavailable() : undefined,
    );
    await expect(processor(sink, recordingGate().gate)(batchOf(10), context())).rejects.toMatchObject(held);
    expect(written).toEqual(['s1', 's3', 's5', 's7', 's9']);
  });
});

describe('failures about the event itself are dead-lettered at once, as before', () => {
  it.each([400, 404, 409, 422])(
    'HTTP %i: dead-lettered as failed, the rest processed, the batch completes',
    async (status) => {
      const { sink, written } = scriptedSink((r) =>
        r.sensorId === 's1' ? new RestError('rejected', { statusCode: status }) : undefined,
      );
      const result = await processor(sink, recordingGate().gate)(batchOf(3), context());
      expect(result).toMatchObject({ processed: 2, deadLettered: 1 });
      expect(written).toEqual(['s0', 's2']);
      expect((await drain()).map((m) => [m.sequenceNumber, m.reason])).toEqual([[1, 'failed']]);
    },
  );
});

describe('an event that fails alone is dead-lettered after a bounded number of re-runs', () => {
  const alwaysFailing = () => scriptedSink((r) => (r.sensorId === 's4' ? unavailable() : undefined));

  it('is held on the first run and on re-runs 1 and 2, then dead-lettered as isolated on re-run 3', async () => {
    const { sink } = alwaysFailing();
    const run = processor(sink, recordingGate().gate);
    for (const rerun of [0, 1, 2]) {
      await expect(run(batchOf(10), context({ rerun }))).rejects.toMatchObject(held);
      expect(await drain()).toEqual([]);
    }
    const result = await run(batchOf(10), context({ rerun: 3 }));
    expect(result).toMatchObject({ processed: 9, deadLettered: 1 });
    expect((await drain()).map((m) => [m.sequenceNumber, m.reason])).toEqual([[4, 'isolated']]);
  });

  it('counts as isolated when another partition of this instance got through during the run', async () => {
    const { sink } = scriptedSink((r) => (r.sensorId === 'lonely' ? unavailable() : undefined));
    const run = processor(sink, recordingGate().gate);
    await run(batchOf(3, '1'), context({ rerun: 0 }));
    const lonely = [receivedEvent(jsonBody(reading({ sensorId: 'lonely' })), 7, '2')];
    const result = await run(lonely, context({ rerun: 3 }));
    expect(result).toMatchObject({ processed: 0, deadLettered: 1 });
    expect((await drain()).map((m) => [m.partitionId, m.sequenceNumber, m.reason])).toEqual([
      ['2', 7, 'isolated'],
    ]);
  });

  it('keeps holding past the re-runs while nothing gets through: an outage is not isolated', async () => {
    const { sink } = scriptedSink(() => unavailable());
    await expect(
      processor(sink, recordingGate().gate)(batchOf(10), context({ rerun: 7 })),
    ).rejects.toMatchObject(held);
    expect(await drain()).toEqual([]);
  });
});

describe("saved events (the retention guard's) drained after an approval", () => {
  const savedIn = async () => {
    const container = BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
      env.DEAD_LETTER_CONTAINER!,
    );
    await container.createIfNotExists();
    const saved = makeSavedEvents(container);
    await saved.save(batchOf(10, '5'));
    return saved;
  };
  const drainRun = { invocationId: 'drain-saved', logger: context().logger };

  it('isolates one that fails alone on the drain run the live path would (its re-run 3), and drains the rest, in order', async () => {
    const saved = await savedIn();
    const { sink, written } = scriptedSink((r) => (r.sensorId === 's4' ? unavailable() : undefined));
    // Each run is a new drain call (a new activity, a minute apart): the count lives on the saved blob.
    for (const rerun of [0, 1, 2]) {
      await expect(
        drainSavedEvents(saved, processor(sink, recordingGate().gate), drainRun),
        `run ${rerun}`,
      ).rejects.toMatchObject(held);
      expect(await drain()).toEqual([]);
      expect(await saved.heldRuns('5', 0)).toBe(rerun + 1);
    }
    const result = await drainSavedEvents(saved, processor(sink, recordingGate().gate), drainRun);
    expect(result).toMatchObject({ drained: 9, dead: 1, partitions: ['5'], through: { '5': 9 } });
    expect(written.filter((id, i) => written.indexOf(id) === i)).toEqual([
      's0',
      's1',
      's2',
      's3',
      's5',
      's6',
      's7',
      's8',
      's9',
    ]);
    expect((await drain()).map((m) => [m.partitionId, m.sequenceNumber, m.reason])).toEqual([
      ['5', 4, 'isolated'],
    ]);
    expect((await saved.count()).total).toBe(0);
  });

  it('dead-letters a saved blob that is not a saved event (edited, truncated) as poison, and drains the rest', async () => {
    const saved = await savedIn();
    const container = BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
      env.DEAD_LETTER_CONTAINER!,
    );
    await container.getBlockBlobClient(savedBlobName('5', 3)).upload('{"partitionId":"5","seq', 23);
    await container.getBlockBlobClient(savedBlobName('5', 6)).upload(JSON.stringify({ body: 42 }), 13);
    await container.getBlockBlobClient(savedBlobName('5', 8)).upload('', 0);
    // Names the store never writes (copied or edited by hand) are not saved events: left alone.
    const foreign = ['saved/5/007.json', 'saved/5/x/7.json'];
    for (const name of foreign) await container.getBlockBlobClient(name).upload('{}', 2);
    const { sink, written } = scriptedSink(() => undefined);
    const result = await drainSavedEvents(saved, processor(sink, recordingGate().gate), drainRun);
    expect(result).toMatchObject({ drained: 7, dead: 3 });
    expect(written).toEqual(['s0', 's1', 's2', 's4', 's5', 's7', 's9']);
    expect((await drain()).map((m) => [m.partitionId, m.sequenceNumber, m.reason])).toEqual([
      ['5', 3, 'poison'],
      ['5', 6, 'poison'],
      ['5', 8, 'poison'],
    ]);
    expect((await saved.count()).total).toBe(0);
    for (const name of foreign) {
      expect(await container.getBlockBlobClient(name).exists()).toBe(true);
      await container.getBlockBlobClient(name).delete();
    }
  });

  it('leaves a blob over the largest saved event in place, unread, and drains the rest (no worker holds 40 MiB for one event)', async () => {
    const saved = await savedIn();
    const container = BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
      env.DEAD_LETTER_CONTAINER!,
    );
    const huge = Buffer.alloc(MAX_SAVED_BLOB_BYTES + 1, 0x20);
    await container.getBlockBlobClient(savedBlobName('5', 3)).uploadData(huge);
    const { sink, written } = scriptedSink(() => undefined);
    const result = await drainSavedEvents(saved, processor(sink, recordingGate().gate), drainRun);
    expect(result).toMatchObject({ drained: 9, dead: 0 });
    expect(written).toEqual(['s0', 's1', 's2', 's4', 's5', 's6', 's7', 's8', 's9']);
    expect(await drain()).toEqual([]);
    const left = await container.getBlockBlobClient(savedBlobName('5', 3)).getProperties();
    expect(left.contentLength).toBe(huge.length);
    expect((await saved.count()).total).toBe(0);
    await container.getBlockBlobClient(savedBlobName('5', 3)).delete();
  });

  it('drains what the guard saves of the partition meanwhile too: the call ends only with none left', async () => {
    const saved = await savedIn();
    const later = Array.from({ length: 10 }, (_, i) =>
      receivedEvent(jsonBody(reading({ sensorId: `t${i}` })), 10 + i, '5'),
    );
    let guardRan = false;
    // The guard's next run saves ten more of this partition while the drain writes the first pass.
    const savingMeanwhile: typeof saved = {
      ...saved,
      read: async (partitionId, sequenceNumbers) => {
        if (!guardRan) {
          guardRan = true;
          await saved.save(later);
        }
        return saved.read(partitionId, sequenceNumbers);
      },
    };
    const { sink, written } = scriptedSink(() => undefined);
    const result = await drainSavedEvents(savingMeanwhile, processor(sink, recordingGate().gate), drainRun);
    expect(result).toMatchObject({ drained: 20, dead: 0, through: { '5': 19 } });
    expect(written).toEqual([...batchOf(10, '5').map((_, i) => `s${i}`), ...later.map((_, i) => `t${i}`)]);
    expect((await saved.count()).total).toBe(0);
  });

  it('keeps every saved event and throws while the downstream is down: an outage is never isolated', async () => {
    const saved = await savedIn();
    const { sink } = scriptedSink(() => unavailable());
    for (let run = 0; run < 5; run++)
      await expect(
        drainSavedEvents(saved, processor(sink, recordingGate().gate), drainRun),
      ).rejects.toMatchObject(held);
    expect(await drain()).toEqual([]);
    expect((await saved.count()).total).toBe(10);
    await saved.remove('5', [...Array(10).keys()]);
  });
});

describe('with a finite host retry count', () => {
  it('the last run dead-letters what is still held (tried or not) rather than let the checkpoint pass it', async () => {
    const { sink } = scriptedSink((r) => (r.sensorId === 's0' ? undefined : unavailable()));
    const result = await processor(sink, recordingGate().gate)(
      batchOf(8),
      context({ rerun: 2, finalAttempt: true }),
    );
    expect(result).toMatchObject({ processed: 1, deadLettered: 7 });
    const letters = await drain();
    expect(letters.map((m) => m.sequenceNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(letters.map((m) => m.reason))).toEqual(new Set(['retries-exhausted']));
  });
});
