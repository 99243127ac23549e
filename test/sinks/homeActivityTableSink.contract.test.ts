import { TableClient } from '@azure/data-tables';

import { freePort } from '../../sim/services/freePort';
import { makeHomeActivityTableSink, type SensorActivityRow } from '../../src/sinks/homeActivityTableSink';
import { testAppEnv } from '../support/appEnv';
import { describeSinkContract } from '../support/sinkContract';

// The sample sink on Azurite keeps every promise of the sink contract (docs/your-own-downstream.md).
describeSinkContract('the home activity table sink on Azurite', async () => {
  const env = testAppEnv('contract');
  const connectionString = env.AzureWebJobsStorage!;
  // As the composition root builds it: the per-event retry policy is the only retry layer.
  const client = (cs: string) =>
    TableClient.fromConnectionString(cs, env.SINK_TABLE_NAME!, {
      allowInsecureConnection: true,
      retryOptions: { maxRetries: 0 },
    });
  const closedPort = await freePort();
  const unreachable = connectionString.replace(
    /TableEndpoint=http:\/\/127\.0\.0\.1:\d+/,
    `TableEndpoint=http://127.0.0.1:${closedPort}`,
  );
  const table = client(connectionString);
  return {
    newSink: () => makeHomeActivityTableSink(client(connectionString)),
    newUnreachableSink: () => makeHomeActivityTableSink(client(unreachable)),
    readBack: async (homeId, sensorId) => {
      try {
        const row = await table.getEntity<SensorActivityRow>(homeId, sensorId);
        return {
          partitionId: row.eventPartition,
          sequenceNumber: row.eventSequenceNumber,
          revision: row.etag,
        };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw error;
      }
    },
  };
});
