import { performance } from 'node:perf_hooks';

import { alwaysClosedGate } from '../src/breaker/breakerGate';
import { systemClock } from '../src/kernel/clock';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { defaultOrdering, type Ordering } from '../src/processing/ordering';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { makeHttpActivitySink } from '../src/sinks/httpActivitySink';
import type { BenchSection } from './benchSection';
import { startFixedDelayApi } from './fixedDelayApi';
import { median } from './measure';
import {
  allProcessed,
  BATCH,
  benchContext,
  describeWorkload,
  f,
  inPool,
  keyModeWrites,
  makeWorkload,
  throughputLine,
  workloads,
} from './sinkWorkload';

const DELAY_MS = 5;
const ROUNDS = 4;
/** Turns per round: in each, one batch of by key and one of the ceiling; serial every SERIAL_EVERY turns. */
const TURNS = 16;
const SERIAL_EVERY = 8;
const ROUND_TRIPS = 40;
const POOL = { bursts: 60, spread: 300 };

/**
 * The batch processor with the real HTTP API sink against a local API that answers every request after
 * a fixed 5 ms (bench/fixedDelayApi.ts): serial (ORDERING=partition), key mode with the default bound,
 * and the ceiling: the same writes key mode makes (superseded readings left out), in no order, through a
 * plain pool of the same bound, so by key ÷ ceiling is the cost of ordering by key alone. The bound's
 * physical limit is the bound ÷ the round trip, measured in the same rounds (serial sink writes).
 */
export const httpThroughputSection: BenchSection = {
  title: `Sink throughput: ${BATCH}-event batches, HTTP API sink against a local API answering after ${DELAY_MS} ms`,
  async run({ print }) {
    const api = await startFixedDelayApi(DELAY_MS);
    try {
      let requests = 0;
      const sink = makeHttpActivitySink({
        url: api.url,
        healthUrl: api.healthUrl,
        timeoutMs: 10_000,
        keyPrefix: 'bench',
        fetch: (input, init) => (requests++, fetch(input, init)),
      });
      const processWith = (ordering: Ordering) => {
        const processor = makeBatchProcessor({
          ...{ functionName: 'ProcessSensorEvents', sink, breaker: alwaysClosedGate, clock: systemClock },
          deadLetters: { write: () => Promise.resolve() },
          retry: { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 2_000 },
          batchDeadlineMs: 60_000,
          ordering,
        });
        return (batch: ReceivedEvent[]) => processor(batch, benchContext).then(allProcessed);
      };
      const bound = defaultOrdering.concurrency;
      const write = (e: { reading: Parameters<typeof sink.write>[0]; event: ReceivedEvent }) =>
        sink.write(e.reading, e.event, AbortSignal.timeout(60_000));
      const configs = [
        ['serial', processWith({ mode: 'partition', concurrency: 1 })],
        ['by key', processWith(defaultOrdering)],
        ['ceiling', (batch: ReceivedEvent[]) => inPool(keyModeWrites(batch), bound, write)],
      ] as const;

      const roundTrips: number[] = [];
      const probe = makeWorkload('spread', 'round-trip', POOL.spread);
      const measureRoundTrips = async () => {
        for (const e of keyModeWrites(probe()).slice(0, ROUND_TRIPS)) {
          const t = performance.now();
          await write(e);
          roundTrips.push(performance.now() - t);
        }
      };
      for (const kind of workloads) {
        const streams = configs.map(([label]) =>
          makeWorkload(kind, `${kind}-${label.replace(' ', '-')}`, POOL[kind]),
        );
        const ms = configs.map(() => 0);
        const calls = configs.map(() => 0);
        const events = configs.map(() => 0);
        const cpu = configs.map(() => 0);
        const timed = async (i: number) => {
          const run = configs[i]![1];
          const batch = streams[i]!();
          const before = requests;
          const t = performance.now();
          const used = process.cpuUsage();
          await run(batch);
          ms[i]! += performance.now() - t;
          const spent = process.cpuUsage(used);
          cpu[i]! += spent.user + spent.system;
          calls[i]! += requests - before;
          events[i]! += BATCH;
        };
        for (const i of configs.keys()) await timed(i); // warm-up, then counting starts afresh
        for (const counts of [ms, calls, events, cpu]) counts.fill(0);
        // Batch by batch, the configurations take turns in rotating order (serial less often: its batch
        // takes 100 round trips), so load from elsewhere on a shared machine falls on all of them alike.
        for (let round = 0; round < ROUNDS; round++) {
          await measureRoundTrips();
          for (let turn = 0; turn < TURNS; turn++) {
            const order = turn % 2 === 0 ? [1, 2] : [2, 1];
            if (turn % SERIAL_EVERY === 0) order.splice(turn % 3, 0, 0);
            for (const i of order) await timed(i);
          }
        }
        const [s, k, c] = ms.map((m, i) => ((events[i] ?? 0) / m) * 1000);
        const perEvent = configs.map((_, i) => (calls[i] ?? 0) / (events[i] ?? 1));
        const rtt = median(roundTrips);
        const limit = (bound / rtt) * 1000;
        print(
          `workload ${kind} (${describeWorkload(kind)} per batch); http requests per event: ${configs.map(([label], i) => `${label} ${perEvent[i]!.toFixed(2)}`).join(', ')}`,
        );
        print(
          `round trip ${rtt.toFixed(2)} ms (median of ${roundTrips.length} serial sink writes so far); the bound's physical limit: ${bound} ÷ ${rtt.toFixed(2)} ms = ${f(limit)} requests/s = ${f(limit / perEvent[1]!)} ev/s at by key's ${perEvent[1]!.toFixed(2)} requests per event`,
        );
        // This process's CPU (user + system, every thread: the engine, the sink, undici) per event and as a
        // share of the wall time: where it nears one core, the bench process, not the bound, is the limit.
        const cpuPerEvent = cpu.map((u, i) => u / (events[i] ?? 1));
        const busy = cpu.map((u, i) => u / 1000 / (ms[i] ?? 1));
        print(
          `bench process cpu per event: ${configs.map(([label], i) => `${label} ${f(cpuPerEvent[i]!)} µs (${f(busy[i]! * 100)} % of one core)`).join(', ')}; one core at by key's cost: ${f(1e6 / cpuPerEvent[1]!)} ev/s`,
        );
        print(throughputLine('http', kind, s!, k!, c!));
      }
    } finally {
      await api.close();
    }
  },
};
