import { performance } from 'node:perf_hooks';
import { TableClient } from '@azure/data-tables';
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';

import { generateEvents } from '../scripts/producer/generateEvents';
import { endpointPort, startFaultProxy, withEndpointPort } from '../sim/net/faultProxy';
import { alwaysClosedGate } from '../src/breaker/breakerGate';
import { makeTableBreakerStore } from '../src/breaker/tableBreakerStore';
import { makeBlobQueueDeadLetterStore } from '../src/deadLetters/blobQueueDeadLetterStore';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { systemClock } from '../src/kernel/clock';
import { silentLogger } from '../src/kernel/logger';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { makeHomeActivityTableSink } from '../src/sinks/homeActivityTableSink';
import { benchName, benchPolicy } from './benchPolicy';
import type { BenchSection } from './benchSection';

const SERVICES = ['TableEndpoint', 'BlobEndpoint', 'QueueEndpoint'] as const;

/**
 * Storage requests per event, counted on the wire: every Table, Blob and Queue request the real sink,
 * dead-letter store and Table breaker store send passes a counting HTTP hop in front of Azurite. Also
 * the mean body size of the producer's readings (what the hub's ingress limit is measured in).
 */
export const storageCallsSection: BenchSection = {
  title: 'Storage requests per event (capacity)',
  async run({ storageConnectionString, print }) {
    const counts = new Map<string, number>();
    const proxies = await Promise.all(
      SERVICES.map((service) =>
        startFaultProxy(endpointPort(storageConnectionString, service)).then((proxy) => {
          proxy.setRule(({ method }) => {
            counts.set(`${service} ${method}`, (counts.get(`${service} ${method}`) ?? 0) + 1);
            return undefined;
          });
          return proxy;
        }),
      ),
    );
    const connection = SERVICES.reduce(
      (cs, service, i) => withEndpointPort(cs, service, proxies[i]?.port ?? 0),
      storageConnectionString,
    );
    const total = (service: string) =>
      [...counts].filter(([k]) => k.startsWith(service)).reduce((sum, [, n]) => sum + n, 0);
    try {
      const events = generateEvents({
        count: 2_000,
        homes: 250,
        poison: 0.02,
        seed: 7,
        startTime: new Date(Date.UTC(2026, 0, 1)),
        spacingMs: 60_000 / 2_000,
      });
      const bytes = events.reduce((sum, e) => sum + e.body.byteLength, 0);
      print(`mean event body: ${(bytes / events.length).toFixed(0)} bytes (2,000 generated readings)`);

      const table = TableClient.fromConnectionString(connection, benchName('Sink'), {
        allowInsecureConnection: true,
      });
      const blobs = BlobServiceClient.fromConnectionString(connection).getContainerClient('bench-letters');
      const queue = QueueServiceClient.fromConnectionString(connection).getQueueClient('bench-letters');
      const process = makeBatchProcessor({
        functionName: 'ProcessSensorEvents',
        sink: makeHomeActivityTableSink(table),
        deadLetters: makeBlobQueueDeadLetterStore(blobs, queue),
        breaker: alwaysClosedGate,
        clock: systemClock,
        retry: { maxAttempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
        batchDeadlineMs: 60_000,
      });
      const received: ReceivedEvent[] = events.map((e, n) => ({
        index: n % 100,
        body: Buffer.from(e.body),
        partitionId: '0',
        sequenceNumber: n,
        offset: String(n),
        enqueuedTimeUtc: undefined,
        properties: {},
        systemProperties: {},
      }));
      const context = { invocationId: 'bench', logger: silentLogger, finalAttempt: false };
      const run = async (list: readonly ReceivedEvent[]) => {
        for (let i = 0; i < list.length; i += 100) await process(list.slice(i, i + 100), context);
      };
      await run(received.slice(0, 100)); // creates the table, container and queue: not counted
      counts.clear();
      const rest = received.slice(100);
      const started = performance.now();
      await run(rest);
      const seconds = (performance.now() - started) / 1000;
      const poison = rest.filter((e) => events[e.sequenceNumber ?? 0]?.poison !== undefined).length;
      const valid = rest.length - poison;
      print(
        `${valid} valid events: ${total('Table')} Table requests = ${(total('Table') / valid).toFixed(2)} per event (read, then insert or replace)`,
      );
      print(
        `one partition, in order: ${(rest.length / seconds).toFixed(0)} events/s = ${((seconds * 1000) / rest.length).toFixed(1)} ms per event against local Azurite`,
      );
      print(
        `${poison} dead letters: ${total('Blob')} Blob + ${total('Queue')} Queue requests = ${((total('Blob') + total('Queue')) / poison).toFixed(2)} per dead letter`,
      );
      counts.clear();
      await run(rest.slice(0, 500)); // a re-run of a held batch delivers these again
      print(
        `re-delivered 500 (already applied): ${total('Table')} Table requests = ${(total('Table') / 500).toFixed(2)} per event (read only; dead letters written again: ${total('Blob')} Blob, ${total('Queue')} Queue)`,
      );

      const mb = (n: number) => (n / 2 ** 20).toFixed(0);
      const memory = globalThis.process.memoryUsage();
      print(
        `this Node process after the batches (app code + Azure SDKs, as in a worker): rss ${mb(memory.rss)} MiB, heap used ${mb(memory.heapUsed)} MiB`,
      );

      const store = makeTableBreakerStore({
        table: TableClient.fromConnectionString(connection, benchName('Breaker'), {
          allowInsecureConnection: true,
        }),
        name: benchName('cap'),
        policy: { ...benchPolicy, threshold: 1_000_000 },
      });
      await store.record([{ eventKey: 'warm', kind: 'transient', message: 'warm-up' }], Date.now());
      counts.clear();
      const records = 50;
      for (let i = 0; i < records; i++)
        await store.record([{ eventKey: `e${i}`, kind: 'transient', message: 'bench' }], Date.now());
      print(
        `Table breaker store: ${(total('Table') / records).toFixed(1)} Table requests per record() (one per batch with failures)`,
      );
      counts.clear();
      for (let i = 0; i < records; i++) await store.getState();
      print(
        `Table breaker store: ${(total('Table') / records).toFixed(1)} Table requests per state read (cached 1 s per instance)`,
      );
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
    }
  },
};
