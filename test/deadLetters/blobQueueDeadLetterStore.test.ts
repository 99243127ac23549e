import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import type { DeadLetter } from '../../src/deadLetters/deadLetter';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import { testAppEnv } from '../support/appEnv';
import { receivedEvent } from '../support/sensorEvents';

let env: Record<string, string>;
const container = () =>
  BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
    env.DEAD_LETTER_CONTAINER!,
  );
const queue = () =>
  QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(env.DEAD_LETTER_QUEUE!);
const store = () => makeBlobQueueDeadLetterStore(container(), queue());

beforeAll(() => {
  env = testAppEnv('dls');
});

function letter(event: ReceivedEvent, overrides: Partial<DeadLetter> = {}): DeadLetter {
  return {
    event,
    functionName: 'ProcessSensorEvents',
    reason: 'failed',
    error: { name: 'RestError', code: 'ServerBusy', message: 'the sink answered 503' },
    attempts: 4,
    deadLetteredAt: '2026-01-01T00:00:00.000Z',
    invocationId: 'inv-1',
    ...overrides,
  };
}

async function peekExpiry(): Promise<Date | undefined> {
  const { peekedMessageItems } = await queue().peekMessages({ numberOfMessages: 1 });
  return peekedMessageItems[0]?.expiresOn;
}

async function receiveAll(): Promise<DeadLetterMessage[]> {
  const { receivedMessageItems } = await queue().receiveMessages({ numberOfMessages: 32 });
  await Promise.all(receivedMessageItems.map((m) => queue().deleteMessage(m.messageId, m.popReceipt)));
  return receivedMessageItems.map(
    (m) => JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage,
  );
}

describe('the blob + queue dead-letter store', () => {
  it('keeps the body in a blob and everything needed to replay it in a base64 queue message', async () => {
    const event = {
      ...receivedEvent(Buffer.from([0, 1, 2, 255]), 42, '5'),
      systemProperties: { contentType: 'application/x-sensor' },
    };
    await store().write([letter(event)]);
    const [message] = await receiveAll();
    expect(message).toEqual({
      version: 1,
      functionName: 'ProcessSensorEvents',
      blobName: 'ProcessSensorEvents/p5/0000000000000042',
      bodyBytes: 4,
      partitionId: '5',
      offset: '4200',
      sequenceNumber: 42,
      enqueuedTimeUtc: event.enqueuedTimeUtc,
      properties: { source: 'test' },
      reason: 'failed',
      error: { name: 'RestError', code: 'ServerBusy', message: 'the sink answered 503' },
      attempts: 4,
      deadLetteredAt: '2026-01-01T00:00:00.000Z',
      invocationId: 'inv-1',
    });
    const blob = container().getBlobClient(message!.blobName);
    expect(await blob.downloadToBuffer()).toEqual(Buffer.from([0, 1, 2, 255]));
    expect((await blob.getProperties()).contentType).toBe('application/x-sensor');
  });

  it('keeps queue messages until they are redriven (no expiry)', async () => {
    await store().write([letter(receivedEvent(Buffer.from('keep'), 3, '1'))]);
    const expiresOn = await peekExpiry();
    // Azure reports "never" as 9999-12-31; the default would be 7 days from now.
    expect(expiresOn?.getUTCFullYear()).toBe(9999);
    await receiveAll();
  });

  it('stores a 1 MB body intact', async () => {
    const body = Buffer.alloc(1024 * 1024, 7);
    await store().write([letter(receivedEvent(body, 1, '9'))]);
    const [message] = await receiveAll();
    expect(message!.bodyBytes).toBe(body.length);
    expect((await container().getBlobClient(message!.blobName).downloadToBuffer()).equals(body)).toBe(true);
  });

  it('moves properties too large for a queue message into their own blob', async () => {
    const properties = { big: 'x'.repeat(60 * 1024) };
    await store().write([letter({ ...receivedEvent(Buffer.from('b'), 2, '9'), properties })]);
    const [message] = await receiveAll();
    expect(message!.properties).toBeUndefined();
    expect(message!.propertiesBlobName).toBe(`${message!.blobName}.properties.json`);
    const stored = await container().getBlobClient(message!.propertiesBlobName!).downloadToBuffer();
    expect(JSON.parse(stored.toString())).toEqual(properties);
  });

  it('gives events without metadata unique blob names, so none overwrites another', async () => {
    const noMeta = (i: number): ReceivedEvent => ({
      ...receivedEvent(Buffer.from(`body-${i}`), 0),
      partitionId: undefined,
      sequenceNumber: undefined,
    });
    await store().write([letter(noMeta(1)), letter(noMeta(2))]);
    const messages = await receiveAll();
    expect(new Set(messages.map((m) => m.blobName)).size).toBe(2);
    const bodies = await Promise.all(
      messages.map(async (m) => (await container().getBlobClient(m.blobName).downloadToBuffer()).toString()),
    );
    expect(bodies.sort()).toEqual(['body-1', 'body-2']);
  });

  it('writes many letters (more than one parallel round)', async () => {
    await store().write(
      Array.from({ length: 40 }, (_, i) => letter(receivedEvent(Buffer.from(`e${i}`), 100 + i, '4'))),
    );
    const seen = new Set<number>();
    for (let round = 0; round < 3; round++) for (const m of await receiveAll()) seen.add(m.sequenceNumber!);
    expect(seen.size).toBe(40);
  });

  it('throws when storage is unreachable', async () => {
    const dead =
      'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:9/devstoreaccount1;QueueEndpoint=http://127.0.0.1:9/devstoreaccount1;';
    const unreachable = makeBlobQueueDeadLetterStore(
      BlobServiceClient.fromConnectionString(dead, { retryOptions: { maxTries: 1 } }).getContainerClient(
        'x-dl',
      ),
      QueueServiceClient.fromConnectionString(dead, { retryOptions: { maxTries: 1 } }).getQueueClient('x-dl'),
    );
    await expect(unreachable.write([letter(receivedEvent(Buffer.from('x'), 1))])).rejects.toThrow();
  });
});
