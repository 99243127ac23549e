import { odata, TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, it } from 'vitest';

import type { ActivitySink } from '../../src/sinks/activitySink';
import { makeHomeActivityTableSink, type SensorActivityRow } from '../../src/sinks/homeActivityTableSink';
import { makePartitionTransactions, type VersionedRow } from '../../src/sinks/partitionTransactions';
import { decodeTableKey, encodeTableKey } from '../../src/sinks/tableKeys';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';
import { context, drain, processor, recordingGate, setUpDeadLetterStorage } from './orderingFixture';

// The Table sink in key ordering mode against the storage conformance layer (the service's limits:
// 15 comparisons per $filter, 100 operations and 4 MiB per transaction), at the sizes real homes reach.

setUpDeadLetterStorage();
let table: TableClient;
beforeAll(async () => {
  const env = testAppEnv('scale');
  table = TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  });
  await table.createTable();
});

/** One reading per sensor of one home, in sequence order. */
const homeBatch = (homeId: string, sensors: number, first = 0) =>
  Array.from({ length: sensors }, (_, i) =>
    receivedEvent(jsonBody(reading({ homeId, sensorId: `s${i}`, state: 'open' })), first + i),
  );

async function rowsOf(homeId: string) {
  const rows: SensorActivityRow[] = [];
  const query = table.listEntities<SensorActivityRow>({
    queryOptions: { filter: odata`PartitionKey eq ${homeId}` },
  });
  for await (const row of query) rows.push(row);
  return rows;
}

describe('the Table sink with many sensors of one home in one batch', () => {
  it('writes 16 sensors of one home, none dead-lettered', async () => {
    await drain();
    const sink = makeHomeActivityTableSink(table);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 16 })(
      homeBatch('home-16', 16),
      context(),
    );
    expect(await drain()).toEqual([]);
    expect(result).toMatchObject({ processed: 16, deadLettered: 0 });
    expect((await rowsOf('home-16')).length).toBe(16);
  });
});

describe('a request the app built wrongly, refused by the storage service', () => {
  /** A sink whose every write sends a query over the service's 15 comparisons: the app's own bug. */
  const wronglyBuilt = (): ActivitySink => ({
    async write(r) {
      const rows = Array.from({ length: 15 }, (_, i) => odata`RowKey eq ${`${r.sensorId}-${i}`}`).join(
        ' or ',
      );
      await table
        .listEntities({ queryOptions: { filter: `${odata`PartitionKey eq ${r.homeId}`} and (${rows})` } })
        .next();
      return 'applied';
    },
    probe: () => Promise.resolve(),
    orderingKey: (r) => r.sensorId,
  });

  it('holds the batch, dead-letters nothing and logs the cause with a stable code', async () => {
    await drain();
    const errors: string[] = [];
    const logger = { log: () => undefined, warn: () => undefined, error: (m: string) => void errors.push(m) };
    const run = processor(wronglyBuilt(), recordingGate().gate, { mode: 'key', concurrency: 16 })(
      homeBatch('home-bug', 3, 100),
      { ...context(), logger },
    );
    await expect(run).rejects.toMatchObject({ code: 'BATCH_HELD' });
    expect(await drain()).toEqual([]);
    expect(errors.filter((m) => m.includes('STORAGE_REQUEST_INVALID'))).toEqual([
      expect.stringMatching(/InvalidInput.*3 event\(s\)/),
    ]);
  });
});

describe('keys built from event content', () => {
  it('writes ids with characters the key rules forbid, under keys that decode back to them', async () => {
    const sink = makeHomeActivityTableSink(table);
    const r = reading({ homeId: 'flat 3/2#b', sensorId: 'door?\u0001', state: 'open' });
    expect(await sink.write(r, receivedEvent(jsonBody(r), 1), new AbortController().signal)).toBe('applied');
    const [row] = await rowsOf(encodeTableKey('flat 3/2#b'));
    expect(row).toMatchObject({ rowKey: encodeTableKey('door?\u0001'), state: 'open' });
    expect(decodeTableKey(row!.rowKey)).toBe('door?\u0001');
  });
});

describe('rows of one partition written at once, past one transaction', () => {
  it('reads the current rows of every chunk: 40 older readings of existing rows are all stale', async () => {
    const sink = makeHomeActivityTableSink(table);
    const run = (first: number) =>
      processor(sink, recordingGate().gate, { mode: 'key', concurrency: 40 })(
        homeBatch('home-40', 40, first),
        context(),
      );
    expect(await run(1_000)).toMatchObject({ processed: 40, deadLettered: 0 });
    const rerun = await run(500); // same sensors, same time, lower sequence numbers: older
    expect(rerun.outcomes.every((o) => o.status === 'processed' && !o.applied)).toBe(true);
    expect((await rowsOf('home-40')).every((r) => r.eventSequenceNumber >= 1_000)).toBe(true);
  });

  it('splits a group over 4 MiB into transactions the service takes', async () => {
    const refused: number[] = [];
    table.pipeline.addPolicy({
      name: 'recordRefusals',
      sendRequest: async (request, next) => {
        const response = await next(request);
        if (response.status === 413 || response.status === 400) refused.push(response.status);
        return response;
      },
    });
    type BigRow = VersionedRow & Readonly<Record<string, string>>;
    const write = makePartitionTransactions<BigRow>(table, () => Promise.reject(new Error('not alone')));
    // 10 rows of 14 strings of 32,000 characters: each under 1 MiB, together about 4.5 MB.
    const fields = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`f${i}`, 'x'.repeat(32_000)]));
    const rows: BigRow[] = Array.from({ length: 10 }, (_, i) => ({
      ...fields,
      partitionKey: 'big',
      rowKey: `r${i}`,
      version: '1',
    }));
    const signal = new AbortController().signal;
    expect(await Promise.all(rows.map((r) => write(r, signal)))).toEqual(rows.map(() => 'applied'));
    expect(refused).toEqual([]);
  });
});
