import { TableClient } from '@azure/data-tables';
import { InvocationContext } from '@azure/functions';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import { blobDeadLetterArchive } from '../../src/deadLetters/deadLetterArchive';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { queueRedriveDeferral } from '../../src/deadLetters/redriveDeferral';
import { makeRedriveHandler, type RedriveDeps } from '../../src/deadLetters/redriveHandler';
import { queueRedriveRefusal } from '../../src/deadLetters/redriveRefusal';
import { makeHomeActivityTableSink } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { memoryBreakerStore } from '../support/memoryBreakerStore';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

// Redrive reads blob names from queue messages, which operators re-queue by hand: it trusts none of them.
const FN = 'ProcessSensorEvents';
const env = testAppEnv('rdt');
const cs = env.AzureWebJobsStorage!;
const blobs = BlobServiceClient.fromConnectionString(cs);
const container = blobs.getContainerClient(env.DEAD_LETTER_CONTAINER!);
const other = blobs.getContainerClient(`${env.DEAD_LETTER_CONTAINER!}-other`);
const queues = QueueServiceClient.fromConnectionString(cs);
const queue = queues.getQueueClient(env.DEAD_LETTER_QUEUE!);
const poison = queues.getQueueClient(`${env.DEAD_LETTER_QUEUE!}-poison`);
const table = TableClient.fromConnectionString(cs, env.SINK_TABLE_NAME!, { allowInsecureConnection: true });
const store = memoryBreakerStore({
  threshold: 100,
  probationThreshold: 10,
  windowMs: 30_000,
  bucketMs: 1_000,
});
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

const deps: RedriveDeps = {
  functionName: FN,
  store,
  archive: blobDeadLetterArchive(container),
  defer: queueRedriveDeferral(queue),
  refuse: queueRedriveRefusal(poison),
  sink: makeHomeActivityTableSink(table),
  retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 },
  deadlineMs: 10_000,
  deferSeconds: 300,
  clock: { now: () => NOW },
};
const redrive = (message: unknown) => makeRedriveHandler(deps)(message, new InvocationContext());

beforeAll(async () => {
  await Promise.all([container.createIfNotExists(), other.createIfNotExists(), queue.createIfNotExists()]);
  await table.createTable();
});
afterEach(async () => {
  store.force({ state: 'CLOSED', tripId: undefined, since: NOW });
  await Promise.all([queue.clearMessages(), poison.clearMessages().catch(() => undefined)]);
});

let sequence = 500;
async function deadLetter(homeId: string): Promise<DeadLetterMessage> {
  await makeBlobQueueDeadLetterStore(container, queue).write([
    {
      event: receivedEvent(jsonBody(reading({ homeId })), ++sequence, '2'),
      functionName: FN,
      reason: 'failed',
      error: { name: 'RestError', code: undefined, message: 'sink answered 503' },
      attempts: 4,
      deadLetteredAt: new Date(NOW).toISOString(),
      invocationId: 'inv-1',
    },
  ]);
  const { receivedMessageItems } = await queue.receiveMessages();
  const item = receivedMessageItems[0]!;
  await queue.deleteMessage(item.messageId, item.popReceipt);
  return JSON.parse(Buffer.from(item.messageText, 'base64').toString()) as DeadLetterMessage;
}

async function poisoned(): Promise<(DeadLetterMessage & { refusedBecause?: string })[]> {
  const { receivedMessageItems } = await poison.receiveMessages({ numberOfMessages: 32 });
  return receivedMessageItems.map(
    (m) => JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage,
  );
}
const exists = (name: string) => container.getBlobClient(name).exists();

describe('redrive trusts no blob name', () => {
  it("a message naming another dead letter's body is refused; that dead letter still redrives", async () => {
    const a = await deadLetter('home-a');
    const b = await deadLetter('home-b');
    await redrive({ ...a, blobName: b.blobName });

    expect(await exists(b.blobName)).toBe(true);
    expect(await exists(a.blobName)).toBe(true);
    const [refused] = await poisoned();
    expect(refused).toMatchObject({ sequenceNumber: a.sequenceNumber, blobName: b.blobName });
    expect(refused?.refusedBecause).toMatch(/partition 2, sequence number \d+/);
    await expect(table.getEntity('home-b', 'door-1')).rejects.toMatchObject({ statusCode: 404 });

    await redrive(b);
    expect(await table.getEntity('home-b', 'door-1')).toMatchObject({ state: 'open' });
    expect(await exists(b.blobName)).toBe(false);
  });

  it('a name that climbs out of the container touches no blob anywhere', async () => {
    const victim = other.getBlockBlobClient('checkpoint-0');
    await victim.uploadData(Buffer.from('checkpoint'));
    const a = await deadLetter('home-c');
    const climbing = `../${other.containerName}/checkpoint-0`;
    await redrive({ ...a, blobName: climbing });
    await redrive({ ...a, propertiesBlobName: climbing });

    expect(await victim.exists()).toBe(true);
    expect(await exists(a.blobName)).toBe(true);
    const refused = await poisoned();
    expect(refused).toHaveLength(2);
    expect(refused.map((r) => r.refusedBecause)).toEqual([
      expect.stringMatching(/blob name/),
      expect.stringMatching(/properties blob/),
    ]);
  });

  it('a dead letter of another function is refused', async () => {
    const a = await deadLetter('home-d');
    await redrive({ ...a, functionName: 'SomethingElse' });
    expect(await exists(a.blobName)).toBe(true);
    expect((await poisoned())[0]?.refusedBecause).toMatch(/function/);
  });
});

describe('deferred dead letters', () => {
  it('keep the never-expire time-to-live while the circuit is open', async () => {
    store.force({ state: 'OPEN', tripId: 'trip-x', since: NOW });
    const a = await deadLetter('home-e');
    // No delay here, so the re-sent message can be peeked at once.
    await makeRedriveHandler({ ...deps, deferSeconds: 0 })(a, new InvocationContext());
    const { peekedMessageItems } = await queue.peekMessages();
    expect(peekedMessageItems).toHaveLength(1);
    // The queue's default is 7 days; the dead-letter store writes "never" (-1), shown as year 9999.
    expect(peekedMessageItems[0]!.expiresOn.getUTCFullYear()).toBe(9999);
  });
});
