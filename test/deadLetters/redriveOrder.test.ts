import { TableClient } from '@azure/data-tables';
import { InvocationContext } from '@azure/functions';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import { blobDeadLetterArchive } from '../../src/deadLetters/deadLetterArchive';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { RedriveFailedError } from '../../src/deadLetters/errors';
import { queueRedriveDeferral } from '../../src/deadLetters/redriveDeferral';
import { makeRedriveHandler } from '../../src/deadLetters/redriveHandler';
import { queueRedriveRefusal } from '../../src/deadLetters/redriveRefusal';
import type { SensorReading } from '../../src/hub/sensorReading';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { TransientSinkError } from '../../src/sinks/errors';
import { makeHomeActivityTableSink } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { memoryBreakerStore } from '../support/memoryBreakerStore';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

// Dead letters of one key are redriven in sequence order, and a redriven event never
// overwrites a newer state. The queue hands messages over in any order, so redriving one dead letter
// first redrives the earlier pending dead letters of its partition (every key lives in one partition).
const env = testAppEnv('ro');
const cs = env.AzureWebJobsStorage!;
const container = BlobServiceClient.fromConnectionString(cs).getContainerClient(env.DEAD_LETTER_CONTAINER!);
const queue = QueueServiceClient.fromConnectionString(cs).getQueueClient(env.DEAD_LETTER_QUEUE!);
const table = TableClient.fromConnectionString(cs, env.SINK_TABLE_NAME!, { allowInsecureConnection: true });
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const store = memoryBreakerStore({
  threshold: 100,
  probationThreshold: 10,
  windowMs: 30_000,
  bucketMs: 1_000,
});

beforeAll(async () => {
  await Promise.all([container.createIfNotExists(), queue.createIfNotExists(), table.createTable()]);
});

/** The real Table sink, recording the order of writes and failing on command. */
function observedSink(fail: (seq: number) => boolean = () => false) {
  const real = makeHomeActivityTableSink(table);
  const order: number[] = [];
  const sink: ActivitySink = {
    write: async (r, e, signal) => {
      if (fail(e.sequenceNumber ?? -1)) throw new TransientSinkError('still down');
      order.push(e.sequenceNumber ?? -1);
      return real.write(r, e, signal);
    },
    probe: (signal) => real.probe(signal),
  };
  return { sink, order };
}

const handler = (sink: ActivitySink) =>
  makeRedriveHandler({
    functionName: 'ProcessSensorEvents',
    refuse: queueRedriveRefusal(
      QueueServiceClient.fromConnectionString(cs).getQueueClient(`${env.DEAD_LETTER_QUEUE!}-poison`),
    ),
    store,
    archive: blobDeadLetterArchive(container),
    defer: queueRedriveDeferral(queue),
    sink,
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 },
    deadlineMs: 10_000,
    deferSeconds: 300,
    clock: { now: () => NOW },
  });
const context = () => new InvocationContext({ functionName: 'RedriveDeadLetters', invocationId: 'r' });

/** Dead-letters the readings as events `first`, `first + 1`, ... of one partition; their queue messages. */
async function deadLetterAll(partitionId: string, first: number, readings: (SensorReading | Buffer)[]) {
  const letters = readings.map((r, i) => ({
    event: receivedEvent(Buffer.isBuffer(r) ? r : jsonBody(r), first + i, partitionId),
    functionName: 'ProcessSensorEvents',
    reason: 'isolated' as const,
    error: { name: 'RestError', code: undefined, message: 'sink answered 504' },
    attempts: 2,
    deadLetteredAt: new Date(NOW).toISOString(),
    invocationId: 'inv',
  }));
  await makeBlobQueueDeadLetterStore(container, queue).write(letters);
  const messages: DeadLetterMessage[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 32 });
    if (receivedMessageItems.length === 0) break;
    for (const m of receivedMessageItems) {
      messages.push(JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage);
      await queue.deleteMessage(m.messageId, m.popReceipt);
    }
  }
  return messages.sort((a, b) => (a.sequenceNumber ?? 0) - (b.sequenceNumber ?? 0));
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const door = (homeId: string, state: SensorReading['state'], second: number) =>
  reading({ homeId, sensorId: 'door-1', state, occurredAt: at(second) });

describe('redrive keeps the order of a key', () => {
  it('a later dead letter delivered first redrives the earlier ones of its partition first, in sequence order', async () => {
    const letters = await deadLetterAll('4', 10, [
      door('home-ord', 'open', 1),
      door('home-ord', 'closed', 2),
      door('home-ord', 'open', 3),
    ]);
    const { sink, order } = observedSink();
    await handler(sink)(JSON.stringify(letters[2]), context());
    expect(order).toEqual([10, 11, 12]);
    expect(await table.getEntity('home-ord', 'door-1')).toMatchObject({
      state: 'open',
      eventSequenceNumber: 12,
    });
    // The earlier letters' own messages find their bodies gone: nothing is written twice.
    await handler(sink)(JSON.stringify(letters[0]), context());
    await handler(sink)(JSON.stringify(letters[1]), context());
    expect(order).toEqual([10, 11, 12]);
  });

  it('an earlier dead letter that still fails holds the later one back: the later one is not written', async () => {
    const letters = await deadLetterAll('5', 20, [
      door('home-held', 'open', 1),
      door('home-held', 'closed', 2),
    ]);
    const { sink, order } = observedSink((seq) => seq === 20);
    const error = await Promise.resolve(handler(sink)(JSON.stringify(letters[1]), context())).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RedriveFailedError);
    expect(order).toEqual([]);
    expect(await container.getBlobClient(letters[1]!.blobName).exists()).toBe(true);
  });

  it('poison among the earlier letters does not hold the later ones (its own message parks it)', async () => {
    const letters = await deadLetterAll('6', 30, [Buffer.from('garbled'), door('home-p', 'closed', 2)]);
    const { sink, order } = observedSink();
    await handler(sink)(JSON.stringify(letters[1]), context());
    expect(order).toEqual([31]);
  });
});

describe('a redriven event never overwrites a newer state', () => {
  it('a dead letter older than what the view holds is redriven as stale: the newer state stays', async () => {
    const { sink } = observedSink();
    // A newer reading of the same sensor was processed normally after the older one was dead-lettered.
    await sink.write(
      door('home-new', 'closed', 9),
      receivedEvent(Buffer.alloc(0), 41, '7'),
      new AbortController().signal,
    );
    const [older] = await deadLetterAll('7', 40, [door('home-new', 'open', 8)]);
    await handler(sink)(JSON.stringify(older), context());
    expect(await table.getEntity('home-new', 'door-1')).toMatchObject({
      state: 'closed',
      eventSequenceNumber: 41,
    });
    expect(await container.getBlobClient(older!.blobName).exists()).toBe(false);
  });
});
