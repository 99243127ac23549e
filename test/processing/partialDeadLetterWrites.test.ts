/**
 * A dead-letter round where only some writes fail: the real composition (Table sink, blob and queue
 * dead letters on Azurite) with a conformance layer in front of the queue that answers ServerBusy to
 * one letter's message, as the service does over its targets. The invocation must throw (the batch is
 * held behind its checkpoint, G1); on the re-run every event ends written or dead-lettered, none in
 * neither state (a body blob without its queue message is never redriven).
 */
import { TableClient } from '@azure/data-tables';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import {
  type ConformanceProxy,
  serverBusy,
  startConformanceProxy,
} from '../../sim/azure/storageConformance/conformanceProxy';
import { localAppEnv } from '../../sim/host/localAppEnv';
import { createRuntime, type Runtime } from '../../src/composition/runtime';
import type { BatchContext } from '../../src/processing/batchProcessor';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

let proxy: ConformanceProxy;
let failing: number | undefined;
let env: Record<string, string>;
let runtime: Runtime;

/** The sequence number of the dead letter a queue "put message" request carries, if any. */
function letterSequence(body: Buffer | undefined): number | undefined {
  const text = /<MessageText>([^<]*)<\/MessageText>/.exec(body?.toString() ?? '')?.[1];
  if (text === undefined) return undefined;
  const letter = JSON.parse(Buffer.from(text, 'base64').toString()) as { sequenceNumber?: unknown };
  return typeof letter.sequenceNumber === 'number' ? letter.sequenceNumber : undefined;
}

beforeAll(async () => {
  const shared = inject('storageConnectionString');
  const queueEndpoint = /QueueEndpoint=http:\/\/127\.0\.0\.1:(\d+)\//.exec(shared);
  // In front of the run's own conformance layer, so every other rule still applies.
  proxy = await startConformanceProxy('queue', Number(queueEndpoint?.[1]), {
    faults: (request) =>
      request.method === 'POST' && failing !== undefined && letterSequence(request.body) === failing
        ? serverBusy
        : undefined,
  });
  const connection = shared.replace(
    /QueueEndpoint=http:\/\/127\.0\.0\.1:\d+\//,
    `QueueEndpoint=http://127.0.0.1:${proxy.port}/`,
  );
  env = localAppEnv(connection, 'partial', { EVENT_MAX_ATTEMPTS: '1' });
  runtime = createRuntime(env);
});
afterAll(() => proxy.close());

const context = (rerun: number): BatchContext => ({
  invocationId: `inv-${rerun}`,
  finalAttempt: false,
  rerun,
  logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
});

async function queuedSequences(): Promise<number[]> {
  const q = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(
    env.DEAD_LETTER_QUEUE!,
  );
  const seen: number[] = [];
  for (;;) {
    const { receivedMessageItems } = await q.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 60 });
    if (receivedMessageItems.length === 0) return seen.sort((a, b) => a - b);
    for (const m of receivedMessageItems)
      seen.push(
        (JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as { sequenceNumber: number })
          .sequenceNumber,
      );
  }
}

async function peekedSequences(): Promise<number[]> {
  const q = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(
    env.DEAD_LETTER_QUEUE!,
  );
  const { peekedMessageItems } = await q.peekMessages({ numberOfMessages: 32 });
  return peekedMessageItems
    .map(
      (m) =>
        (JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as { sequenceNumber: number })
          .sequenceNumber,
    )
    .sort((a, b) => a - b);
}

async function writtenSensors(): Promise<string[]> {
  const table = TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  });
  const rows: string[] = [];
  for await (const e of table.listEntities()) rows.push(String(e.rowKey));
  return rows.sort();
}

describe('a dead-letter round where only some writes fail', () => {
  it('holds the batch, and the re-run leaves every event written or dead-lettered', async () => {
    // 0 and 2 are readings the sink takes; 1, 3 and 4 are poison.
    const events = [
      jsonBody(reading({ sensorId: 's0' })),
      Buffer.from('not json 1'),
      jsonBody(reading({ sensorId: 's2' })),
      Buffer.from('not json 3'),
      Buffer.from('not json 4'),
    ].map((body, i) => receivedEvent(body, i));

    failing = 3;
    await expect(runtime.processBatch(events, context(0))).rejects.toMatchObject({
      code: 'DEAD_LETTER_WRITE_FAILED',
    });
    expect(proxy.refusals.get('ServerBusy')).toBeGreaterThan(0);
    // Only some writes failed: letters 1 and 4 went out, 3 has its body blob but no message.
    expect(await peekedSequences()).toEqual([1, 4]);

    failing = undefined;
    const result = await runtime.processBatch(events, context(1));
    expect(result).toMatchObject({ processed: 2, deadLettered: 3 });
    expect(await writtenSensors()).toEqual(['s0', 's2']);
    // Letters stored before the failure are stored again on the re-run (the redrive treats the repeat
    // as already redriven); what matters is that none is missing.
    expect(new Set(await queuedSequences())).toEqual(new Set([1, 3, 4]));
  });
});
