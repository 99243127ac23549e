import { performance } from 'node:perf_hooks';
import { TableClient } from '@azure/data-tables';

import { startDelayProxy } from '../sim/net/delayProxy';
import { alwaysClosedGate, type BreakerGate } from '../src/breaker/breakerGate';
import { makeStoreBreakerGate } from '../src/breaker/storeBreakerGate';
import { makeTableBreakerStore } from '../src/breaker/tableBreakerStore';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { systemClock } from '../src/kernel/clock';
import { silentLogger } from '../src/kernel/logger';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { defaultOrdering, type Ordering } from '../src/processing/ordering';
import { makeHomeActivityTableSink } from '../src/sinks/homeActivityTableSink';
import { benchName, benchPolicy } from './benchPolicy';
import type { BenchSection } from './benchSection';
import { median, percentile } from './measure';
import {
  allProcessed,
  BATCH,
  benchContext,
  describeWorkload,
  f,
  inPool,
  keyModeWrites,
  makeWorkload,
  rate,
  throughputLine,
  workloads,
} from './sinkWorkload';

const DELAY_MS = 5;
const BATCHES = 4;
const ROUNDS = 3;
/** Homes each workload cycles through: three batches' worth, so later batches replace existing rows. */
const POOL = { bursts: 60, spread: 300 };
const BREAKER_PAIRS = 60;

const tableEndpoint = (connectionString: string, port: number) =>
  connectionString.replace(/TableEndpoint=http:\/\/([^:]+):\d+/, `TableEndpoint=http://$1:${port}`);

/**
 * The batch processor with the real Table sink on Azurite behind a fixed network delay: today's
 * serial loop (ORDERING=partition: every reading, one at a time), key mode with the defaults, and the
 * ceiling: the same writes key mode makes, in no order, through a plain pool of the same bound (so by
 * key ÷ ceiling is the cost of ordering by key alone, as in the HTTP section), and the same writes all
 * at once (what a bound of 16 leaves on the table: here Azurite's CPU). Then key mode with the breaker on
 * (the store-backed gate, Table store, state cached 1 s) against off, batch pairs interleaved.
 */
export const sinkThroughputSection: BenchSection = {
  title: `Sink throughput: ${BATCH}-event batches, Table sink on Azurite behind ${DELAY_MS} ms per request`,
  async run({ storageConnectionString, print }) {
    const port = Number(/TableEndpoint=http:\/\/[^:]+:(\d+)/.exec(storageConnectionString)?.[1]);
    const proxy = await startDelayProxy(port, DELAY_MS);
    try {
      const table = TableClient.fromConnectionString(
        tableEndpoint(storageConnectionString, proxy.port),
        benchName('Sink'),
        { allowInsecureConnection: true },
      );
      let requests = 0;
      table.pipeline.addPolicy({
        name: 'count',
        sendRequest: (request, next) => (requests++, next(request)),
      });
      const sink = makeHomeActivityTableSink(table);
      const processWith = (ordering: Ordering, breaker: BreakerGate = alwaysClosedGate) => {
        const processor = makeBatchProcessor({
          ...{ functionName: 'ProcessSensorEvents', sink, breaker, clock: systemClock },
          deadLetters: { write: () => Promise.resolve() },
          retry: { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 2_000 },
          batchDeadlineMs: 60_000,
          ordering,
        });
        return (batch: ReceivedEvent[]) => processor(batch, benchContext).then(allProcessed);
      };
      const serial = processWith({ mode: 'partition', concurrency: 1 });
      const byKey = processWith(defaultOrdering);
      const write = (e: ReturnType<typeof keyModeWrites>[number]) =>
        sink.write(e.reading, e.event, AbortSignal.timeout(60_000));
      const ceiling = (batch: ReceivedEvent[]) =>
        inPool(keyModeWrites(batch), defaultOrdering.concurrency, write);
      const allAtOnce = (batch: ReceivedEvent[]) => Promise.all(keyModeWrites(batch).map(write));

      for (const kind of workloads) {
        const configs = [
          ['serial', serial],
          ['by key', byKey],
          ['ceiling', ceiling],
          ['all at once', allAtOnce],
        ] as const;
        const streams = configs.map(([label]) =>
          makeWorkload(kind, `${kind}-${label.replaceAll(' ', '-')}`, POOL[kind]),
        );
        const rates = configs.map(() => [] as number[]);
        const before = configs.map(() => 0);
        const calls = configs.map(() => 0);
        // Rounds interleave the configurations, so a burst of load from elsewhere does not hit one alone.
        for (let round = 0; round < ROUNDS; round++) {
          for (const [i, [, run]] of configs.entries()) {
            before[i] = requests;
            rates[i]?.push(await rate(streams[i]!, run, BATCHES, round === 0));
            calls[i] = (calls[i] ?? 0) + requests - (before[i] ?? 0);
          }
        }
        const [s, k, c, a] = rates.map((r) => median(r));
        const events = BATCH * (BATCHES * ROUNDS + 1);
        const perEvent = configs.map(([label], i) => `${label} ${((calls[i] ?? 0) / events).toFixed(2)}`);
        print(
          `workload ${kind} (${describeWorkload(kind)} per batch); table requests per event: ${perEvent.join(', ')}`,
        );
        print(throughputLine('table', kind, s!, k!, c!));
        print(
          `sink throughput (table, ${kind}), the same writes all at once, no bound: ${Math.round(a!).toLocaleString('en-US')} ev/s (by key ${Math.round((k! / a!) * 100)} % of it)`,
        );
      }

      // Breaker on vs off on the happy path, real sink: key mode, rounds alternating which goes first.
      const store = makeTableBreakerStore({
        table: TableClient.fromConnectionString(storageConnectionString, benchName('Breaker'), {
          allowInsecureConnection: true,
          retryOptions: { maxRetries: 1 },
        }),
        name: benchName('Fn'),
        policy: benchPolicy,
        operationTimeoutMs: 10_000,
      });
      const gate = makeStoreBreakerGate({
        store,
        clock: systemClock,
        stateCacheMs: 1_000,
        logger: silentLogger,
      });
      const on = processWith(defaultOrdering, gate);
      const next = {
        on: makeWorkload('bursts', 'on', POOL.bursts),
        off: makeWorkload('bursts', 'off', POOL.bursts),
      };
      const timed = async (which: 'on' | 'off') => {
        const batch = next[which]();
        const t = performance.now();
        await (which === 'on' ? on : byKey)(batch);
        return performance.now() - t;
      };
      await timed('on'); // warm-up: the gate's first state read, the rows
      await timed('off');
      // Batch pairs back to back, which goes first alternating: the machine's noise hits both alike.
      const ratios: number[] = [];
      for (let pair = 0; pair < BREAKER_PAIRS; pair++) {
        const first = pair % 2 === 0 ? 'on' : 'off';
        const a = await timed(first);
        const b = await timed(first === 'on' ? 'off' : 'on');
        ratios.push(first === 'on' ? b / a : a / b); // off time / on time = on rate / off rate
      }
      print(
        `breaker on/off, key mode, real sink, happy path: median on/off rate ratio ${median(ratios).toFixed(3)} over ${BREAKER_PAIRS} batch pairs (quartiles ${percentile(ratios, 0.25).toFixed(2)}–${percentile(ratios, 0.75).toFixed(2)})`,
      );
      await store.close();
      print(`delay proxy: ${f(requests)} sink requests over ${proxy.connections} connection(s) (kept alive)`);
      const mem = process.memoryUsage();
      print(
        `process memory at the end: rss ${Math.round(mem.rss / 2 ** 20)} MiB, heap used ${Math.round(mem.heapUsed / 2 ** 20)} MiB`,
      );
    } finally {
      await proxy.close();
    }
  },
};
