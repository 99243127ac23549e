import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readCheckpointPositions } from '../../verify/accounting';
import { makeAppClient } from '../../verify/appClient';
import type { TargetStores } from '../../verify/target';

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

describe("verify's calls to the app", () => {
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

describe('the first call to an app that is still starting', () => {
  it('tries again when the first call gets no answer, and says so', async () => {
    let requests = 0;
    const held: Socket[] = [];
    // The first request is never answered (a cold start past the bound); later ones are.
    const server = createHttpServer((req, res) => {
      requests++;
      if (requests === 1) {
        held.push(req.socket);
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ state: 'CLOSED', tripId: null, phase: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const lines: string[] = [];
    try {
      const client = makeAppClient({ baseUrl: url, functionKey: 'k' }, { timeoutMs: 200 });
      await expect(client.firstStatus(3, (line) => lines.push(line))).resolves.toMatchObject({
        state: 'CLOSED',
      });
      expect(requests).toBe(2);
      expect(lines).toEqual([
        'GET /api/breaker/status: no answer within 0.2 s; the app may still be starting: trying again (2 of 3)',
      ]);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 5_000);

  it('gives up after the last try with the call named', async () => {
    const lines: string[] = [];
    const client = makeAppClient({ baseUrl, functionKey: 'k' }, { timeoutMs: 100 });
    await expect(client.firstStatus(2, (line) => lines.push(line))).rejects.toThrow(
      /^GET \/api\/breaker\/status: no answer within 0\.1 s$/,
    );
    expect(lines).toHaveLength(1);
  }, 5_000);
});
