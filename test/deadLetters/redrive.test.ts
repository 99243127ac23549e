import { TableClient } from '@azure/data-tables';
import { InvocationContext } from '@azure/functions';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { bindingOfType, invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { makeBlobQueueDeadLetterStore } from '../../src/deadLetters/blobQueueDeadLetterStore';
import type { DeadLetter } from '../../src/deadLetters/deadLetter';
import { blobDeadLetterArchive, PARKED_SUFFIX } from '../../src/deadLetters/deadLetterArchive';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { InvalidDeadLetterMessageError, RedriveFailedError } from '../../src/deadLetters/errors';
import { queueRedriveDeferral } from '../../src/deadLetters/redriveDeferral';
import { makeRedriveHandler, type RedriveDeps } from '../../src/deadLetters/redriveHandler';
import { queueRedriveRefusal } from '../../src/deadLetters/redriveRefusal';
import { REDRIVE_FUNCTION, registerRedrive } from '../../src/deadLetters/registerRedrive';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { TransientSinkError } from '../../src/sinks/errors';
import { makeHomeActivityTableSink } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { memoryBreakerStore } from '../support/memoryBreakerStore';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

const env = testAppEnv('rd');
const cs = env.AzureWebJobsStorage!;
const container = BlobServiceClient.fromConnectionString(cs).getContainerClient(env.DEAD_LETTER_CONTAINER!);
const queue = QueueServiceClient.fromConnectionString(cs).getQueueClient(env.DEAD_LETTER_QUEUE!);
const table = TableClient.fromConnectionString(cs, env.SINK_TABLE_NAME!, { allowInsecureConnection: true });
const store = memoryBreakerStore({
  threshold: 100,
  probationThreshold: 10,
  windowMs: 30_000,
  bucketMs: 1_000,
});
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const DEFER_SECONDS = 300;

function deps(overrides: Partial<RedriveDeps> = {}): RedriveDeps {
  return {
    functionName: 'ProcessSensorEvents',
    store,
    archive: blobDeadLetterArchive(container),
    defer: queueRedriveDeferral(queue),
    refuse: queueRedriveRefusal(
      QueueServiceClient.fromConnectionString(cs).getQueueClient(`${env.DEAD_LETTER_QUEUE!}-poison`),
    ),
    sink: makeHomeActivityTableSink(table),
    retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 },
    deadlineMs: 10_000,
    deferSeconds: DEFER_SECONDS,
    clock: { now: () => NOW },
    ...overrides,
  };
}

beforeAll(async () => {
  await Promise.all([container.createIfNotExists(), queue.createIfNotExists(), table.createTable()]);
  registerRedrive(deps());
});
afterEach(async () => {
  store.force({ state: 'CLOSED', tripId: undefined, since: NOW });
  store.failWith(undefined);
  await queue.clearMessages();
});

let sequence = 100;
/** Dead-letters one event through the real dead-letter store and takes its message off the queue. */
async function deadLetter(body: Buffer, reason: DeadLetter['reason'] = 'failed') {
  const event = receivedEvent(body, ++sequence, '3');
  await makeBlobQueueDeadLetterStore(container, queue).write([
    {
      event,
      functionName: 'ProcessSensorEvents',
      reason,
      error: { name: 'RestError', code: undefined, message: 'sink answered 503' },
      attempts: 4,
      deadLetteredAt: new Date(NOW).toISOString(),
      invocationId: 'inv-1',
    },
  ]);
  const { receivedMessageItems } = await queue.receiveMessages();
  const item = receivedMessageItems[0]!;
  await queue.deleteMessage(item.messageId, item.popReceipt);
  // The host base64-decodes the message and hands JSON to the worker as a json typed datum.
  const text = Buffer.from(item.messageText, 'base64').toString();
  return { text, message: JSON.parse(text) as DeadLetterMessage };
}
const invoke = (text: string) => invokeRpc(REDRIVE_FUNCTION, { trigger: { json: text } });
const exists = (name: string) => container.getBlobClient(name).exists();

describe('RedriveDeadLetters registration', () => {
  it('is a queue trigger on %DEAD_LETTER_QUEUE% over AzureWebJobsStorage', () => {
    expect(bindingOfType(REDRIVE_FUNCTION, 'queueTrigger')).toMatchObject({
      queueName: '%DEAD_LETTER_QUEUE%',
      connection: 'AzureWebJobsStorage',
    });
  });
});

describe('redrive while the circuit is CLOSED', () => {
  it('writes the dead-lettered event to the sink and removes its blob', async () => {
    const r = reading({ homeId: 'home-redrive', sensorId: 'door-9', state: 'closed' });
    const { text, message } = await deadLetter(jsonBody(r));
    expect(await exists(message.blobName)).toBe(true);
    const { logs } = await invoke(text);
    const row = await table.getEntity<{ state: string; eventSequenceNumber: number; eventPartition: string }>(
      'home-redrive',
      'door-9',
    );
    expect(row).toMatchObject({
      state: 'closed',
      eventSequenceNumber: message.sequenceNumber,
      eventPartition: '3',
    });
    expect(await exists(message.blobName)).toBe(false);
    expect(logs.map((l) => l.message).join('\n')).toMatch(/redriven \(applied, 1 attempt/);
  });

  it('completes a repeated delivery of a redriven message without writing again', async () => {
    const r = reading({ homeId: 'home-twice', sensorId: 's1' });
    const { text } = await deadLetter(jsonBody(r));
    await invoke(text);
    const { logs } = await invoke(text);
    expect(logs.map((l) => l.message).join('\n')).toMatch(/already redriven, nothing to do/);
    expect(await table.getEntity('home-twice', 's1')).toMatchObject({ state: 'open' });
  });
});

describe('redrive while the circuit is not CLOSED: deferred, never into the poison queue', () => {
  for (const state of ['OPEN', 'HALF_OPEN'] as const) {
    it(`${state}: re-queues the message invisible for ${DEFER_SECONDS} s and writes nothing`, async () => {
      store.force({ state, tripId: 'trip-x', since: NOW });
      const { text, message } = await deadLetter(jsonBody(reading({ homeId: `home-${state}` })));
      await invoke(text);
      const props = await queue.getProperties();
      expect(props.approximateMessagesCount).toBe(1);
      expect((await queue.peekMessages()).peekedMessageItems).toHaveLength(0);
      await expect(table.getEntity(`home-${state}`, 'door-1')).rejects.toMatchObject({ statusCode: 404 });
      expect(await exists(message.blobName)).toBe(true);
    });
  }

  it('store unreachable: deferred as well (state unknown)', async () => {
    store.failWith(new Error('ECONNREFUSED'));
    const { text } = await deadLetter(jsonBody(reading({ homeId: 'home-nostore' })));
    const { logs } = await invoke(text);
    expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
    expect(logs.map((l) => l.message).join('\n')).toMatch(/deferred 300 s: circuit is UNKNOWN/);
  });
});

describe('dead letters that can never succeed are parked, not looped', () => {
  it('an invalid body: parked beside its blob with the reason, message completed', async () => {
    const { text, message } = await deadLetter(Buffer.from('not json {'), 'poison');
    await invoke(text);
    const parked = JSON.parse(
      (await container.getBlobClient(`${message.blobName}${PARKED_SUFFIX}`).downloadToBuffer()).toString(),
    ) as Record<string, unknown>;
    expect(parked).toMatchObject({
      blobName: message.blobName,
      reason: 'poison',
      parkedAt: new Date(NOW).toISOString(),
    });
    expect(parked.parkedBecause).toMatch(/not JSON/);
    expect(await exists(message.blobName)).toBe(true);
    expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
  });

  it('a queue message that is not a dead letter throws (the poison queue is the last stop)', async () => {
    await expect(invoke(JSON.stringify({ hello: 'world' }))).rejects.toBeInstanceOf(
      InvalidDeadLetterMessageError,
    );
  });
});

describe('a sink that keeps failing while CLOSED', () => {
  it('throws after the per-event retry policy, so the host retries later; the blob stays', async () => {
    let attempts = 0;
    const failing: ActivitySink = {
      write: () => {
        attempts++;
        return Promise.reject(new TransientSinkError('503 from the sink'));
      },
      probe: () => Promise.reject(new TransientSinkError('503 from the sink')),
    };
    const { text, message } = await deadLetter(jsonBody(reading({ homeId: 'home-down' })));
    const handler = makeRedriveHandler(deps({ sink: failing }));
    await expect(handler(JSON.parse(text), new InvocationContext())).rejects.toBeInstanceOf(
      RedriveFailedError,
    );
    expect(attempts).toBe(3);
    expect(await exists(message.blobName)).toBe(true);
  });
});
