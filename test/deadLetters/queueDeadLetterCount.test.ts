import { createServer, type Server, type Socket } from 'node:net';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { queueDeadLetterCount } from '../../src/deadLetters/queueDeadLetterCount';
import { testAppEnv } from '../support/appEnv';

const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

describe('the dead-letter count on the status page and in the emails', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let silentPort = 0;

  beforeAll(async () => {
    // Accepts connections and never answers: a storage endpoint that hangs, as one does in an outage.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('counts the messages waiting in the queue', async () => {
    const env = testAppEnv('dlcount');
    const queue = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(
      env.DEAD_LETTER_QUEUE!,
    );
    await queue.createIfNotExists();
    await queue.sendMessage('a');
    await queue.sendMessage('b');
    await expect(queueDeadLetterCount(queue)()).resolves.toBe(2);
  });

  it('counts 0 before the first dead letter: the store creates the queue with it', async () => {
    const env = testAppEnv('dlnone');
    const queue = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(
      env.DEAD_LETTER_QUEUE!,
    );
    await expect(queueDeadLetterCount(queue)()).resolves.toBe(0);
  });

  it('gives up within its bound when storage does not answer, instead of holding the page for the SDK retries', async () => {
    const cs =
      `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${DEV_KEY};` +
      `QueueEndpoint=http://127.0.0.1:${silentPort}/devstoreaccount1;`;
    const queue = QueueServiceClient.fromConnectionString(cs).getQueueClient('dead-letters');
    // The SDK alone would retry for minutes here; the vitest timeout below fails the test long before.
    await expect(queueDeadLetterCount(queue, { timeoutMs: 300 })()).resolves.toBeUndefined();
  }, 5_000);
});
