import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';

// What a hostile or broken producer can put into an event: none of it may hold the partition, and none
// of it reaches a log line unbounded or with its own line breaks.
const FN = 'ProcessSensorEvents';
const QUEUE_MESSAGE_LIMIT = 64 * 1024;
let env: Record<string, string>;

beforeAll(async () => {
  env = testAppEnv('hostile');
  applyEnv(env);
  await import('../../src/functions/processSensorEvents');
});

const queue = () =>
  QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(env.DEAD_LETTER_QUEUE!);
const container = () =>
  BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
    env.DEAD_LETTER_CONTAINER!,
  );

/** Dead letters with the size of their queue message as stored. */
async function drain(): Promise<{ message: DeadLetterMessage; storedBytes: number }[]> {
  const got: { message: DeadLetterMessage; storedBytes: number }[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue().receiveMessages({ numberOfMessages: 32 });
    if (receivedMessageItems.length === 0) return got;
    for (const m of receivedMessageItems) {
      got.push({
        message: JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage,
        storedBytes: Buffer.byteLength(m.messageText),
      });
      await queue().deleteMessage(m.messageId, m.popReceipt);
    }
  }
}

const LOG_LINE_LIMIT = 2_000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

describe('hostile event content', () => {
  it('a reading with one 60 KB unknown key is dead-lettered in one run; the queue message fits', async () => {
    const hugeKey = `x${'k'.repeat(60_000)}`;
    const body = jsonBody({ ...reading({ homeId: 'home-huge' }), [hugeKey]: 1 });
    const { logs } = await invokeRpc(FN, rpcEventBatch([body], { partitionId: '3', firstSequenceNumber: 7 }));

    const letters = await drain();
    expect(letters).toHaveLength(1);
    const [{ message, storedBytes }] = letters as [(typeof letters)[0]];
    expect(message).toMatchObject({ reason: 'poison', partitionId: '3', sequenceNumber: 7 });
    expect(storedBytes).toBeLessThanOrEqual(QUEUE_MESSAGE_LIMIT);
    expect(message.error.message).toMatch(/Unrecognized key/);
    expect(message.error.message.length).toBeLessThan(2_000);
    const stored = await container().getBlobClient(message.blobName).downloadToBuffer();
    expect(stored.equals(body)).toBe(true);
    for (const line of logs) expect(line.message.length).toBeLessThan(LOG_LINE_LIMIT);
  });

  it('control characters and huge text in the body, properties and content type stay out of the logs and fit', async () => {
    const forged = '\n[Error] forged log line\r\u2028also forged\u0000';
    const bodies = [
      Buffer.from(`not json ${forged}${'z'.repeat(30_000)}`),
      jsonBody({ ...reading(), kind: `toaster${forged}${'q'.repeat(20_000)}` }),
    ];
    const batch = rpcEventBatch(bodies, { partitionId: '4', firstSequenceNumber: 100 });
    const meta = batch.triggerMetadata;
    meta.PropertiesArray = {
      json: JSON.stringify(
        bodies.map(() => ({
          note: `${forged}${'p'.repeat(50_000)}`,
          producer: 'test',
          // Goes into the body blob's Content-Type header unless refused.
          contentType: `text/plain\r\nX-Injected: 1${'c'.repeat(9_000)}`,
        })),
      ),
    };
    const { logs } = await invokeRpc(FN, batch);

    const letters = await drain();
    expect(letters.map((l) => l.message.sequenceNumber).sort()).toEqual([100, 101]);
    for (const { message, storedBytes } of letters) {
      expect(storedBytes).toBeLessThanOrEqual(QUEUE_MESSAGE_LIMIT);
      expect(message.error.message).not.toMatch(CONTROL);
      // Properties too large for the message moved to their own blob, intact.
      const props = await container()
        .getBlobClient(message.propertiesBlobName ?? '')
        .downloadToBuffer();
      expect(JSON.parse(props.toString())).toMatchObject({ producer: 'test' });
    }
    for (const line of logs) {
      expect(line.message).not.toMatch(CONTROL);
      expect(line.message.length).toBeLessThan(LOG_LINE_LIMIT);
    }
  });

  it('two events with the same sequence number in one batch keep both bodies', async () => {
    const first = jsonBody({ ...reading(), kind: 'first-body' });
    const second = jsonBody({ ...reading(), kind: 'second-body' });
    const batch = rpcEventBatch([first, second], { partitionId: '5', firstSequenceNumber: 900 });
    batch.triggerMetadata.SequenceNumberArray = { collectionSint64: { sint64: [900, 900] } };
    await invokeRpc(FN, batch);

    const letters = await drain();
    expect(letters).toHaveLength(2);
    const names = letters.map((l) => l.message.blobName);
    expect(new Set(names).size).toBe(2);
    const stored = await Promise.all(names.map((n) => container().getBlobClient(n).downloadToBuffer()));
    expect(stored.map((b) => b.toString()).sort()).toEqual([first.toString(), second.toString()].sort());
  });
});
