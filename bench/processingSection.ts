import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TableClient } from '@azure/data-tables';

import { alwaysClosedGate, type BreakerGate } from '../src/breaker/breakerGate';
import type { BreakerStore } from '../src/breaker/breakerStore';
import { makeRedisBreakerStore } from '../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../src/breaker/redisClient';
import { makeStoreBreakerGate } from '../src/breaker/storeBreakerGate';
import { makeTableBreakerStore } from '../src/breaker/tableBreakerStore';
import type { DeadLetterStore } from '../src/deadLetters/deadLetter';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { systemClock } from '../src/kernel/clock';
import { silentLogger } from '../src/kernel/logger';
import { type BatchProcessor, makeBatchProcessor } from '../src/processing/batchProcessor';
import type { ActivitySink } from '../src/sinks/activitySink';
import { benchName, benchPolicy } from './benchPolicy';
import type { BenchSection } from './benchSection';
import { fmt, pct } from './measure';

const BATCH = 100;
const BATCHES = 600;
const WARMUP = 15;

/**
 * The same sink for every configuration: an in-memory view behind one event-loop turn per write, so a
 * batch costs what the processor and the breaker cost and not the noise of a shared local Azurite.
 * Homes named `down-*` are refused at once with a 422 (about the event: dead-lettered, not retried, so
 * no retry delays in the figure and no held batch).
 */
function benchSink(): ActivitySink {
  const view = new Map<string, number>();
  return {
    write: async (reading, event) => {
      await nextTurn();
      if (reading.homeId.startsWith('down-'))
        throw Object.assign(new Error('sink rejected the write (bench)'), { statusCode: 422 });
      view.set(`${reading.homeId}/${reading.sensorId}`, event.sequenceNumber ?? 0);
      return 'applied';
    },
    probe: () => Promise.resolve(),
  };
}

const discardDeadLetters: DeadLetterStore = { write: () => Promise.resolve() };

let sequence = 0;
function makeBatch(failRatio: number): ReceivedEvent[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const n = sequence++;
    const failing = failRatio > 0 && i % Math.round(1 / failRatio) === 0;
    const reading = {
      homeId: `${failing ? 'down' : 'home'}-${n % 5000}`,
      sensorId: `door-${n}`,
      kind: 'contact',
      state: 'open',
      occurredAt: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
    };
    return {
      index: i,
      body: Buffer.from(JSON.stringify(reading)),
      partitionId: '0',
      sequenceNumber: n,
      offset: String(n),
      enqueuedTimeUtc: new Date().toISOString(),
      properties: {},
      systemProperties: {},
    };
  });
}

function processor(sink: ActivitySink, breaker: BreakerGate): BatchProcessor {
  return makeBatchProcessor({
    functionName: 'ProcessSensorEvents',
    sink,
    deadLetters: discardDeadLetters,
    breaker,
    clock: systemClock,
    retry: { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 2_000 },
    batchDeadlineMs: 60_000,
  });
}

const context = { invocationId: 'bench', logger: silentLogger, finalAttempt: false };

/**
 * Events per second of each configuration over all its batches (state refreshes included). The
 * configurations alternate batch by batch, in rotating order, so load from other processes on a shared
 * machine falls on all of them alike; the first rounds warm up and are not counted.
 */
async function compare(configs: readonly [string, BatchProcessor][], failRatio: number) {
  const totalMs = new Map<string, number>(configs.map(([label]) => [label, 0]));
  for (let round = -WARMUP; round < BATCHES; round++) {
    const start = ((round % configs.length) + configs.length) % configs.length;
    for (let i = 0; i < configs.length; i++) {
      const [label, process] = configs[(start + i) % configs.length]!;
      const batch = makeBatch(failRatio);
      const t = performance.now();
      await process(batch, context);
      if (round >= 0) totalMs.set(label, totalMs.get(label)! + performance.now() - t);
    }
  }
  const off = totalMs.get('off') ?? Number.NaN;
  return [...totalMs].map(([label, ms]) => ({
    label,
    rate: ((BATCH * BATCHES) / ms) * 1000,
    ratio: off / ms,
  }));
}

/** Processing throughput of a 100-event batch with the breaker off and on (Redis, Table), same sink. */
export const processingSection: BenchSection = {
  title: `Processing ${BATCH}-event batches, breaker off vs on (same in-memory sink; ${BATCHES} batches each, interleaved)`,
  async run({ redisUrl, storageConnectionString, print }) {
    const sink = benchSink();
    const stores: BreakerStore[] = [
      makeRedisBreakerStore({
        redis: createBreakerRedis(redisUrl),
        name: benchName('Proc'),
        policy: benchPolicy,
      }),
      makeTableBreakerStore({
        table: TableClient.fromConnectionString(storageConnectionString, benchName('Brk'), {
          allowInsecureConnection: true,
          retryOptions: { maxRetries: 1 },
        }),
        name: benchName('Proc'),
        policy: benchPolicy,
      }),
    ];
    const gate = (store: BreakerStore) =>
      makeStoreBreakerGate({ store, clock: systemClock, stateCacheMs: 1_000, logger: console });
    const configs: [string, BatchProcessor][] = [
      ['off', processor(sink, alwaysClosedGate)],
      ['on (Redis)', processor(sink, gate(stores[0]!))],
      ['on (Table)', processor(sink, gate(stores[1]!))],
    ];
    for (const [scenario, failRatio] of [
      ['happy path', 0],
      ['10 % failures', 0.1],
    ] as const) {
      print(`${scenario}:`);
      for (const { label, rate, ratio } of await compare(configs, failRatio)) {
        const shown = label === 'off' ? '' : `   ${pct(ratio)} of off`;
        print(`  ${label.padEnd(11)} ${fmt(rate).padStart(7)} events/s${shown}`);
      }
    }
    await Promise.all(stores.map((s) => s.close()));
  },
};
