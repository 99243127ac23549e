import { TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  makeHomeActivityTableSink,
  type SensorActivityRow,
} from '../../src/processing/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';
import { context, drain, processor, recordingGate, setUpDeadLetterStorage } from './orderingFixture';

// The Table sink in key ordering mode against the storage conformance layer (the service's limits:
// 15 comparisons per $filter, 100 operations and 4 MiB per transaction), at the sizes real homes reach.

setUpDeadLetterStorage();
let table: TableClient;
beforeAll(() => {
  const env = testAppEnv('scale');
  table = TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
    allowInsecureConnection: true,
  });
});

/** One reading per sensor of one home, in sequence order. */
const homeBatch = (homeId: string, sensors: number, first = 0) =>
  Array.from({ length: sensors }, (_, i) =>
    receivedEvent(jsonBody(reading({ homeId, sensorId: `s${i}`, state: 'open' })), first + i),
  );

async function rowsOf(homeId: string) {
  const rows: SensorActivityRow[] = [];
  const query = table.listEntities<SensorActivityRow>({
    queryOptions: { filter: `PartitionKey eq '${homeId}'` },
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
