import { createServer, type Server, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BlobServiceClient } from '@azure/storage-blob';

import { readCheckpointPositions } from '../../verify/accounting';
import { makeAppClient } from '../../verify/appClient';
import type { TargetStores } from '../../verify/target';

describe("verify's calls to the app", () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let baseUrl = '';

  beforeAll(async () => {
    // Accepts connections and never answers, like an app whose dependencies hang.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a call that gets no answer fails naming the call and the bound, not "the operation was aborted"', async () => {
    const client = makeAppClient({ baseUrl, functionKey: 'k' }, { timeoutMs: 200 });
    await expect(client.status()).rejects.toThrow(/^GET \/api\/breaker\/status: no answer within 0\.2 s$/);
  }, 5_000);

  it('a checkpoint read that gets no answer names the container and the bound', async () => {
    const key = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
    const blobs = BlobServiceClient.fromConnectionString(
      `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${key};BlobEndpoint=${baseUrl}/devstoreaccount1;`,
    );
    const stores = {
      checkpoints: { container: blobs.getContainerClient('azure-webjobs-eventhub'), prefix: 'ns/hub/cg/' },
    } as unknown as TargetStores;
    await expect(readCheckpointPositions(stores, 200)).rejects.toThrow(
      /^reading the host's checkpoints \(container azure-webjobs-eventhub\): no answer within 0\.2 s$/,
    );
  }, 5_000);
});
