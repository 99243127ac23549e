import { performance } from 'node:perf_hooks';

import { TableClient } from '@azure/data-tables';

import { alwaysClosedGate } from '../src/processing/breakerGate';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { decodeReading } from '../src/processing/decodeReading';
import { makeHomeActivityTableSink } from '../src/processing/homeActivityTableSink';
import { silentLogger } from '../src/kernel/logger';
import { defaultOrdering, type Ordering } from '../src/processing/ordering';
import type { ReceivedEvent } from '../src/processing/receivedEvent';
import { systemClock } from '../src/kernel/clock';
import { startDelayProxy } from '../sim/net/delayProxy';
import { benchName } from './benchPolicy';
import type { BenchSection } from './benchSection';

const DELAY_MS = 5;
const BATCH = 100;
const BATCHES = 10;
const HOMES = 500;

let sequence = 0;
/** 100 readings over many rows (a few repeat a row, as a busy home's sensors do). */
function makeBatch(): ReceivedEvent[] {
  return Array.from({ length: BATCH }, (_, index) => {
    const n = sequence++;
    const body = Buffer.from(
      JSON.stringify({
        homeId: `home-${n % HOMES}`,
        sensorId: `door-${n % 3}`,
        kind: 'contact',
        state: n % 2 === 0 ? 'open' : 'closed',
        occurredAt: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
      }),
    );
    return {
      ...{ index, body, partitionId: '0', sequenceNumber: n, offset: String(n) },
      ...{ enqueuedTimeUtc: new Date().toISOString(), properties: {}, systemProperties: {} },
    };
  });
}

const context = { invocationId: 'bench', logger: silentLogger, finalAttempt: false };
const tableEndpoint = (connectionString: string, port: number) =>
  connectionString.replace(/TableEndpoint=http:\/\/([^:]+):\d+/, `TableEndpoint=http://$1:${port}`);

/** Events per second of `run` over BATCHES fresh batches. */
async function rate(run: (batch: ReceivedEvent[]) => Promise<unknown>): Promise<number> {
  await run(makeBatch()); // warm-up: connections and the table
  const t = performance.now();
  for (let i = 0; i < BATCHES; i++) await run(makeBatch());
  return ((BATCH * BATCHES) / (performance.now() - t)) * 1000;
}

/** The batch processor on the real Table sink, Azurite behind a fixed network delay (issue 15). */
export const sinkThroughputSection: BenchSection = {
  title: `Sink throughput: ${BATCH}-event batches over ${HOMES * 3} rows, Table sink on Azurite behind ${DELAY_MS} ms per request`,
  async run({ storageConnectionString, print }) {
    const port = Number(/TableEndpoint=http:\/\/[^:]+:(\d+)/.exec(storageConnectionString)?.[1]);
    const proxy = await startDelayProxy(port, DELAY_MS);
    try {
      const table = TableClient.fromConnectionString(
        tableEndpoint(storageConnectionString, proxy.port),
        benchName('Sink'),
        { allowInsecureConnection: true },
      );
      const sink = makeHomeActivityTableSink(table);
      const processWith = (ordering: Ordering) =>
        makeBatchProcessor({
          ...{ functionName: 'ProcessSensorEvents', sink, breaker: alwaysClosedGate, clock: systemClock },
          deadLetters: { write: () => Promise.resolve() },
          retry: { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 2_000 },
          batchDeadlineMs: 60_000,
          ordering,
        });
      const serial = processWith({ mode: 'key', concurrency: 1 });
      const byKey = processWith(defaultOrdering);
      const serialRate = await rate((batch) => serial(batch, context));
      const byKeyRate = await rate((batch) => byKey(batch, context));
      // The ceiling: the same writes, all at once, in no order.
      const ceilingRate = await rate((batch) =>
        Promise.all(batch.map((e) => sink.write(decodeReading(e.body), e, AbortSignal.timeout(60_000)))),
      );
      const f = (n: number) => Math.round(n).toLocaleString('en-US');
      print(
        `sink throughput: serial ${f(serialRate)} ev/s, by key ${f(byKeyRate)} ev/s (${(byKeyRate / serialRate).toFixed(1)}× serial), ceiling ${f(ceilingRate)} ev/s (${Math.round((byKeyRate / ceilingRate) * 100)} % of ceiling)`,
      );
      const mem = process.memoryUsage();
      print(
        `process memory at the end: rss ${Math.round(mem.rss / 2 ** 20)} MiB, heap used ${Math.round(mem.heapUsed / 2 ** 20)} MiB`,
      );
    } finally {
      await proxy.close();
    }
  },
};
