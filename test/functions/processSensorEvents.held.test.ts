import { beforeAll, describe, expect, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { DeadLetterWriteError } from '../../src/processing/errors';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { rpcEventBatch } from '../support/sensorEvents';

// Dead-letter storage (blob + queue) points at a port where nothing listens: storing a poison event
// fails, so the invocation must throw and the host's retry policy holds the batch (G1).
beforeAll(async () => {
  const base = testAppEnv('held');
  applyEnv({
    ...base,
    AzureWebJobsStorage: base
      .AzureWebJobsStorage!.replace(
        /BlobEndpoint=http:\/\/127\.0\.0\.1:\d+/,
        'BlobEndpoint=http://127.0.0.1:9',
      )
      .replace(/QueueEndpoint=http:\/\/127\.0\.0\.1:\d+/, 'QueueEndpoint=http://127.0.0.1:9'),
  });
  await import('../../src/functions/processSensorEvents');
});

describe('ProcessSensorEvents when the dead-letter store is down', () => {
  it('throws, so the batch is held behind the checkpoint instead of being lost', async () => {
    await expect(
      invokeRpc('ProcessSensorEvents', rpcEventBatch([Buffer.from('poison')])),
    ).rejects.toBeInstanceOf(DeadLetterWriteError);
  }, 120_000);
});
