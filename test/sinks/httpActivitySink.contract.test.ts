import { afterAll } from 'vitest';

import { freePort } from '../../sim/services/freePort';
import { type HttpDownstream, startHttpDownstream } from '../../sim/world/httpDownstream';
import { makeHttpActivitySink } from '../../src/sinks/httpActivitySink';
import { describeSinkContract } from '../support/sinkContract';

let downstream: HttpDownstream | undefined;
afterAll(() => downstream?.close());

// The HTTP sink against a local API that keeps the API's side of the contract.
describeSinkContract('the HTTP sink on a local HTTP API', async () => {
  const api = (downstream = await startHttpDownstream());
  const closed = `http://127.0.0.1:${await freePort()}`;
  const sink = (url: string, healthUrl: string) =>
    makeHttpActivitySink({ url, healthUrl, timeoutMs: 5_000, keyPrefix: 'sensor-readings' });
  return {
    newSink: () => sink(api.url, api.healthUrl),
    newUnreachableSink: () => sink(`${closed}/readings`, `${closed}/health`),
    rejectHome: (homeId) => {
      api.reject(homeId, 422);
    },
    readBack: (homeId, sensorId) => {
      const record = api.held(homeId, sensorId);
      return Promise.resolve(
        record && {
          partitionId: record.body.eventPartition,
          sequenceNumber: record.body.eventSequenceNumber,
          revision: record.revision,
        },
      );
    },
  };
});
