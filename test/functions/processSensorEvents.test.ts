import { TableClient } from '@azure/data-tables';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bindingOfType, invokeRpc, registration } from '../../sim/host/fakeFunctionsCore';
import { endpointPort, type FaultProxy, startFaultProxy, withEndpointPort } from '../../sim/net/faultProxy';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { savedBlobName } from '../../src/retention/savedEvents';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';

const FN = 'ProcessSensorEvents';
let env: Record<string, string>;
let proxy: FaultProxy;

beforeAll(async () => {
  const base = testAppEnv('fn', { RETENTION_GUARD_ENABLED: 'true' });
  // Table traffic goes through a fault proxy so a test can make the sink answer 503 for one home.
  proxy = await startFaultProxy(endpointPort(base.AzureWebJobsStorage!, 'TableEndpoint'));
  env = {
    ...base,
    AzureWebJobsStorage: withEndpointPort(base.AzureWebJobsStorage!, 'TableEndpoint', proxy.port),
  };
  applyEnv(env);
  await import('../../src/functions/processSensorEvents');
});
afterAll(() => proxy.close());

const table = () =>
  TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  });
const queue = () =>
  QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(env.DEAD_LETTER_QUEUE!);
const container = () =>
  BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getContainerClient(
    env.DEAD_LETTER_CONTAINER!,
  );

async function drainDeadLetters(): Promise<DeadLetterMessage[]> {
  const got: DeadLetterMessage[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue().receiveMessages({ numberOfMessages: 32 });
    if (receivedMessageItems.length === 0) return got;
    for (const m of receivedMessageItems) {
      got.push(JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage);
      await queue().deleteMessage(m.messageId, m.popReceipt);
    }
  }
}

describe('ProcessSensorEvents registration', () => {
  it('is an Event Hubs batch trigger bound to settings, with a retry policy that holds the checkpoint', () => {
    const trigger = bindingOfType(FN, 'eventHubTrigger');
    expect(trigger).toMatchObject({
      direction: 'in',
      cardinality: 'many',
      dataType: 'binary',
      connection: 'EventHubConnection',
      eventHubName: '%EVENTHUB_NAME%',
      consumerGroup: '%EVENTHUB_CONSUMER_GROUP%',
    });
    expect(registration(FN).metadata.retryOptions).toMatchObject({
      strategy: 'exponentialBackoff',
      maxRetryCount: -1,
      minimumInterval: { seconds: 5 },
      maximumInterval: { seconds: 30 },
    });
  });

  it('has a name that can be disabled through app settings on Linux (letters, digits, _)', () => {
    expect(FN).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
  });
});

describe('ProcessSensorEvents invoked through the programming model', () => {
  it('holds a batch whose event hits a 503 on its first run: throws, dead-letters nothing', async () => {
    await queue().createIfNotExists();
    proxy.setRule(({ url }) => (url.includes("PartitionKey='home-down'") ? 503 : undefined));
    const failing = reading({ homeId: 'home-down', sensorId: 'motion-1', kind: 'motion', state: 'detected' });
    const batch = rpcEventBatch([jsonBody(failing), Buffer.from('not json {')], {
      partitionId: '6',
      firstSequenceNumber: 10,
    });
    await expect(
      invokeRpc(FN, { ...batch, retryContext: { retryCount: 0, maxRetryCount: -1 } }),
    ).rejects.toMatchObject({ code: 'BATCH_HELD' });
    proxy.setRule(undefined);
    expect(await drainDeadLetters()).toEqual([]);
  });

  it('writes good events, dead-letters poison, and on re-run 3 an event that keeps failing alone', async () => {
    const good = reading({ homeId: 'home-ok', sensorId: 'door-1' });
    const failing = reading({ homeId: 'home-down', sensorId: 'motion-1', kind: 'motion', state: 'detected' });
    proxy.setRule(({ url }) => (url.includes("PartitionKey='home-down'") ? 503 : undefined));
    const batch = rpcEventBatch(
      [jsonBody(good), Buffer.from('not json {'), jsonBody({ ...good, kind: 'toaster' }), jsonBody(failing)],
      { partitionId: '7', firstSequenceNumber: 40 },
    );

    // The host's fourth run of this batch (ISOLATE_AFTER_RERUNS = 3): home-down fails alone.
    const injectedBefore = proxy.injected.length;
    await invokeRpc(FN, { ...batch, retryContext: { retryCount: 3, maxRetryCount: -1 } });
    proxy.setRule(undefined);

    const row = await table().getEntity<{ state: string; eventSequenceNumber: number }>('home-ok', 'door-1');
    expect(row).toMatchObject({ state: 'open', eventSequenceNumber: 40, eventPartition: '7' });
    const letters = (await drainDeadLetters()).sort(
      (a, b) => (a.sequenceNumber ?? 0) - (b.sequenceNumber ?? 0),
    );
    expect(letters.map((l) => [l.sequenceNumber, l.reason])).toEqual([
      [41, 'poison'],
      [42, 'poison'],
      [43, 'isolated'],
    ]);
    expect(letters[0]!.error.message).toMatch(/not JSON/);
    expect(letters[1]!.error.message).toMatch(/kind/);
    expect(letters[2]).toMatchObject({
      partitionId: '7',
      offset: '43000',
      attempts: 4,
      properties: { producer: 'test', n: 3 },
    });
    expect(letters[2]!.enqueuedTimeUtc).toBe(new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 43)).toISOString());
    // The claim check holds the exact bytes of the poison body.
    const blob = await container().getBlobClient(letters[0]!.blobName).downloadToBuffer();
    expect(blob.toString()).toBe('not json {');
    // The failing home was tried four times (EVENT_MAX_ATTEMPTS) before it was dead-lettered.
    expect(proxy.injected.slice(injectedBefore).filter((r) => r.method === 'GET').length).toBe(4);
  });

  it('accepts an empty batch without writing anything', async () => {
    const { logs } = await invokeRpc(FN, rpcEventBatch([]));
    expect(logs.map((l) => l.message)).toContain('empty batch: nothing to do');
    expect(await drainDeadLetters()).toEqual([]);
  });

  it('processes events whose trigger metadata is missing, and says so in the log', async () => {
    const { trigger } = rpcEventBatch([jsonBody(reading({ homeId: 'home-nometa' })), Buffer.from('x')]);
    const { logs } = await invokeRpc(FN, { trigger, triggerMetadata: {} });
    const warnings = logs.filter(
      (l) => l.level === 'warning' && l.message.startsWith('trigger metadata incomplete'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/sequenceNumberArray is missing/);
    expect(await table().getEntity('home-nometa', 'door-1')).toMatchObject({ state: 'open' });
    const letters = await drainDeadLetters();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ reason: 'poison', sequenceNumber: null, partitionId: null });
  });

  it('dead-letters a 1 MB body intact', async () => {
    const big = Buffer.alloc(1024 * 1024, 'a');
    await invokeRpc(FN, rpcEventBatch([big], { partitionId: '2', firstSequenceNumber: 9000 }));
    const [letter] = await drainDeadLetters();
    expect(letter).toMatchObject({ reason: 'poison', bodyBytes: big.length });
    const stored = await container().getBlobClient(letter!.blobName).downloadToBuffer();
    expect(stored.equals(big)).toBe(true);
  });
});

describe("a live batch after the retention guard's saved events", () => {
  /** A blob as the guard writes it for one event (`savedBlobName`'s name, its JSON). */
  const saveAs = async (name: string, partitionId: string, sequenceNumber: number, body: Buffer) => {
    await container().createIfNotExists();
    const json = JSON.stringify({
      partitionId,
      sequenceNumber,
      properties: {},
      systemProperties: {},
      body: body.toString('base64'),
    });
    await container().getBlockBlobClient(name).upload(json, Buffer.byteLength(json));
  };
  const rowOf = (homeId: string, sensorId: string) =>
    table()
      .getEntity<{ eventSequenceNumber: number }>(homeId, sensorId)
      .then(
        (row) => row.eventSequenceNumber,
        () => undefined,
      );

  it('still writes its events when a stray saved event far ahead is drained first (a recreated hub, a forged blob)', async () => {
    // Left from a hub of the same name deleted and created again (its sequence numbers start at 0).
    await saveAs(savedBlobName('11', 5000), '11', 5000, jsonBody(reading({ homeId: 'home-stray' })));
    const bodies = [0, 1, 2].map((i) => jsonBody(reading({ homeId: 'home-live-11', sensorId: `s${i}` })));
    await invokeRpc(FN, rpcEventBatch(bodies, { partitionId: '11', firstSequenceNumber: 10 }));
    expect([
      await rowOf('home-live-11', 's0'),
      await rowOf('home-live-11', 's1'),
      await rowOf('home-live-11', 's2'),
    ]).toEqual([10, 11, 12]);
    expect(await rowOf('home-stray', 'door-1')).toBe(5000);
    expect(await drainDeadLetters()).toEqual([]);
  });

  it('still writes the event a renamed saved blob names: only a blob whose content is that event stands for it', async () => {
    // The guard's copy of event 5, renamed to 6: it is not event 6, so the live event 6 is written.
    await saveAs(
      savedBlobName('12', 6),
      '12',
      5,
      jsonBody(reading({ homeId: 'home-live-12', sensorId: 's0' })),
    );
    const bodies = [0, 1, 2].map((i) => jsonBody(reading({ homeId: 'home-live-12', sensorId: `s${i}` })));
    await invokeRpc(FN, rpcEventBatch(bodies, { partitionId: '12', firstSequenceNumber: 5 }));
    expect([
      await rowOf('home-live-12', 's0'),
      await rowOf('home-live-12', 's1'),
      await rowOf('home-live-12', 's2'),
    ]).toEqual([5, 6, 7]);
    const letters = await drainDeadLetters();
    expect(letters.map((l) => [l.partitionId, l.sequenceNumber, l.reason])).toEqual([['12', 6, 'poison']]);
  });

  it("counts the guard's own saved copies as done: each event reaches the sink once", async () => {
    const bodies = [0, 1, 2, 3].map((i) => jsonBody(reading({ homeId: 'home-live-13', sensorId: `s${i}` })));
    for (const i of [0, 1]) await saveAs(savedBlobName('13', 20 + i), '13', 20 + i, bodies[i]!);
    const { logs } = await invokeRpc(
      FN,
      rpcEventBatch(bodies, { partitionId: '13', firstSequenceNumber: 20 }),
    );
    const rows = await Promise.all(['s0', 's1', 's2', 's3'].map((s) => rowOf('home-live-13', s)));
    expect(rows).toEqual([20, 21, 22, 23]);
    const messages = logs.map((l) => l.message);
    expect(messages).toContain(
      "partition 13: 2 events saved before the hub's retention reached the sink first",
    );
    expect(messages.filter((m) => /^batch of 4 \(partition 13, retry 0\): 2 processed/.test(m))).toHaveLength(
      1,
    );
  });
});
