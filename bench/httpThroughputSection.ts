import { performance } from 'node:perf_hooks';

import { alwaysClosedGate } from '../src/breaker/breakerGate';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { systemClock } from '../src/kernel/clock';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { defaultOrdering, type Ordering } from '../src/processing/ordering';
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
        const apiCpu = configs.map(() => 0);
        const timed = async (i: number) => {
          const run = configs[i]![1];
          const batch = streams[i]!();
          const before = requests;
          const apiBefore = await api.cpuMicros();
          const t = performance.now();
          const used = process.cpuUsage();
          await run(batch);
          ms[i]! += performance.now() - t;
          const spent = process.cpuUsage(used);
          cpu[i]! += spent.user + spent.system;
          apiCpu[i]! += (await api.cpuMicros()) - apiBefore;
          calls[i]! += requests - before;
          events[i]! += BATCH;
        };
        for (const i of configs.keys()) await timed(i); // warm-up, then counting starts afresh
        for (const counts of [ms, calls, events, cpu, apiCpu]) counts.fill(0);
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
        // The API's process shares the machine's cores: its CPU per event is part of what bounds the run.
        print(
          `api process cpu per event: ${configs.map(([label], i) => `${label} ${f(apiCpu[i]! / (events[i] ?? 1))} µs (${f((apiCpu[i]! / 1000 / (ms[i] ?? 1)) * 100)} % of one core)`).join(', ')}`,
        );
        print(throughputLine('http', kind, s!, k!, c!));
      }
      print(await fetchAlone(api.url, bound));
    } finally {
      await api.close();
    }
  },
};

const FETCH_ROUNDS = 3;
const FETCH_REQUESTS = 320;

/**
 * Node's fetch alone against the same API (no sink, no engine, no ordering): `FETCH_REQUESTS` POSTs one
 * at a time and `bound` at a time, taking turns for a few rounds. What `bound` in flight gains over one
 * here is the most any engine built on this client gets on this machine.
 */
async function fetchAlone(url: string, bound: number): Promise<string> {
  const body = JSON.stringify({ sensorId: 'bench', value: 1 });
  const totals = new Map<number, { ms: number; cpu: number; n: number }>();
  for (let round = 0; round < FETCH_ROUNDS; round++) {
    for (const inFlight of round % 2 === 0 ? [1, bound] : [bound, 1]) {
      let sent = 0;
      const t = performance.now();
      const used = process.cpuUsage();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (sent < FETCH_REQUESTS) {
            sent++;
            await (await fetch(url, { method: 'POST', body })).text();
          }
        }),
      );
      const spent = process.cpuUsage(used);
      const total = totals.get(inFlight) ?? { ms: 0, cpu: 0, n: 0 };
      total.ms += performance.now() - t;
      total.cpu += spent.user + spent.system;
      total.n += FETCH_REQUESTS;
      totals.set(inFlight, total);
    }
  }
  const rate = (k: number) => ((totals.get(k)?.n ?? 0) / (totals.get(k)?.ms ?? 1)) * 1000;
  const cpuPer = (k: number) => (totals.get(k)?.cpu ?? 0) / (totals.get(k)?.n ?? 1);
  return `fetch alone (no sink, no engine): 1 in flight ${f(rate(1))} requests/s, ${bound} in flight ${f(rate(bound))} requests/s (${(rate(bound) / rate(1)).toFixed(1)}×); cpu per request ${f(cpuPer(1))} / ${f(cpuPer(bound))} µs`;
}
