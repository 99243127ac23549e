/**
 * A gateway with a fast clock, through the real composition on Azurite (Table sink, blob and queue
 * dead letters): its reading is dead-lettered as future-timestamp and never written, so the sensor's
 * next real reading still reaches the newest-wins row; the redrive parks it; the page counts it.
 */
import { TableClient } from '@azure/data-tables';
import { InvocationContext } from '@azure/functions';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { beforeAll, describe, expect, it } from 'vitest';

import { createOperatorRuntime } from '../../src/composition/operatorRuntime';
import { createRuntime, type Runtime } from '../../src/composition/runtime';
import { makeRedriveHandler } from '../../src/deadLetters/redriveHandler';
import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';
import { partitionTable } from '../../src/operator/partitionTable';
import type { SensorActivityRow } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading } from '../support/sensorEvents';

const NOW = Date.UTC(2026, 2, 1, 12);
const DAY = 86_400_000;
let env: Record<string, string>;
let runtime: Runtime;
const logs: string[] = [];
const logger = {
  log: (m: unknown) => logs.push(String(m)),
  warn: (m: unknown) => logs.push(String(m)),
  error: (m: unknown) => logs.push(String(m)),
};

beforeAll(() => {
  env = testAppEnv('future', { READING_MAX_FUTURE_SKEW_SECONDS: '300' });
  runtime = createRuntime(env, { clock: { now: () => NOW } });
});

/** An event enqueued at `enqueuedAt`, as the trigger hands it over. */
function event(r: SensorReading, sequenceNumber: number, enqueuedAt: number): ReceivedEvent {
  return {
    index: 0,
    body: jsonBody(r),
    partitionId: '3',
    sequenceNumber,
    offset: String(sequenceNumber),
    enqueuedTimeUtc: new Date(enqueuedAt).toISOString(),
    properties: {},
    systemProperties: {},
  };
}
const at = (ms: number) => new Date(ms).toISOString();
const batch = (events: ReceivedEvent[]) =>
  runtime.processBatch(
    events.map((e, index) => ({ ...e, index })),
    { invocationId: 'inv', logger, finalAttempt: false },
  );
const row = (homeId: string, sensorId: string) =>
  TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  }).getEntity<SensorActivityRow>(homeId, sensorId);

async function drainDeadLetters() {
  const q = QueueServiceClient.fromConnectionString(env.AzureWebJobsStorage!).getQueueClient(
    env.DEAD_LETTER_QUEUE!,
  );
  const { receivedMessageItems } = await q.receiveMessages({ numberOfMessages: 32 });
  await Promise.all(receivedMessageItems.map((m) => q.deleteMessage(m.messageId, m.popReceipt)));
  return receivedMessageItems.map(
    (m) => JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as Record<string, unknown>,
  );
}

describe('a reading from the future', () => {
  it('is dead-lettered, never written, and the sensor’s next real reading is', async () => {
    const gateway = { homeId: 'home-skew', sensorId: 'door' };
    const real = reading({ ...gateway, state: 'closed', occurredAt: at(NOW - 2 * DAY) });
    const future = reading({ ...gateway, state: 'open', occurredAt: at(NOW - DAY + 30 * DAY) });
    // The first batch: a real reading, then the gateway 30 days fast, then a real one of another sensor.
    const first = await batch([
      event(real, 1, NOW - 2 * DAY),
      event(future, 2, NOW - DAY),
      event(reading({ homeId: 'home-skew', sensorId: 'window', occurredAt: at(NOW - DAY) }), 3, NOW - DAY),
    ]);
    expect(first).toMatchObject({ processed: 2, deadLettered: 1, letterReasons: ['future-timestamp'] });
    expect((await row('home-skew', 'door')).state).toBe('closed');

    const [letter, ...others] = await drainDeadLetters();
    expect(others).toEqual([]);
    expect(letter).toMatchObject({
      reason: 'future-timestamp',
      sequenceNumber: 2,
      error: { name: 'FutureReadingError', code: 'FUTURE_TIMESTAMP' },
    });
    expect(logs).toContain(
      `dead-lettered future-timestamp event p3-s2: occurredAt ${at(NOW + 29 * DAY)} is 30 days ahead of its ` +
        `enqueued time ${at(NOW - DAY)}; at most 300 s of clock skew is accepted (READING_MAX_FUTURE_SKEW_SECONDS)`,
    );

    // The clock is fixed: the next real reading, a minute fast, is written (before, it was stale for good).
    const next = reading({ ...gateway, state: 'open', occurredAt: at(NOW + 60_000) });
    expect(await batch([event(next, 4, NOW)])).toMatchObject({ processed: 1, deadLettered: 0 });
    expect(await row('home-skew', 'door')).toMatchObject({ state: 'open', eventSequenceNumber: 4 });

    // The page counts it, and says what it means.
    const page = String(partitionTable(runtime.progress.snapshot()));
    expect(page).toMatch(/Dead-lettered since this instance started:\s+future-timestamp 1/);
    expect(page).toMatch(/check the gateways' clocks/);

    // The redrive measures against the same enqueued time, so it parks the letter rather than write it.
    const redrive = makeRedriveHandler(createOperatorRuntime(runtime).redrive);
    await redrive(letter, new InvocationContext());
    expect(await row('home-skew', 'door')).toMatchObject({ state: 'open', eventSequenceNumber: 4 });
    const parked = BlobServiceClient.fromConnectionString(env.AzureWebJobsStorage!)
      .getContainerClient(env.DEAD_LETTER_CONTAINER!)
      .getBlobClient(`${String(letter?.blobName)}.parked.json`);
    const record = JSON.parse((await parked.downloadToBuffer()).toString()) as Record<string, unknown>;
    expect(record.reason).toBe('future-timestamp');
    expect(record.parkedBecause).toMatch(/^occurredAt \S+ is 30 days ahead of its enqueued time/);
  });

  it('in one batch, does not hide the real readings of its sensor around it', async () => {
    const gateway = { homeId: 'home-skew2', sensorId: 'door' };
    await batch([
      event(reading({ ...gateway, state: 'open', occurredAt: at(NOW - 3_000) }), 1, NOW - 3_000),
      event(reading({ ...gateway, state: 'alarm', occurredAt: '9999-12-31T23:59:59Z' }), 2, NOW - 2_000),
      event(reading({ ...gateway, state: 'closed', occurredAt: at(NOW - 1_000) }), 3, NOW - 1_000),
    ]);
    expect(await row('home-skew2', 'door')).toMatchObject({ state: 'closed', eventSequenceNumber: 3 });
    expect((await drainDeadLetters()).map((m) => [m.sequenceNumber, m.reason])).toEqual([
      [2, 'future-timestamp'],
    ]);
  });
});
