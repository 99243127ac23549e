import { alwaysClosedGate } from '../src/breaker/breakerGate';
import { decodeReading } from '../src/hub/decodeReading';
import type { ReceivedEvent } from '../src/hub/receivedEvent';
import { systemClock } from '../src/kernel/clock';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { defaultOrdering, type Ordering } from '../src/processing/ordering';
import type { ActivitySink } from '../src/sinks/activitySink';
import { readingVersion } from '../src/sinks/homeActivityTableSink';
import type { BenchSection } from './benchSection';
import { median } from './measure';
import { allProcessed, BATCH, benchContext, makeWorkload, workloads } from './sinkWorkload';

const BATCHES = 200;
const ROUNDS = 5;

/** A sink that costs nothing: every write applied at once; it declares the HTTP sink's keys. */
const noOpSink: ActivitySink = {
  write: () => Promise.resolve('applied'),
  probe: () => Promise.resolve(),
  orderingKey: (reading) => `${reading.homeId}/${reading.sensorId}`,
  readingVersion,
};

/** CPU time (user + system) of `run` over BATCHES fresh batches, in microseconds per event. */
async function cpuPerEvent(next: () => ReceivedEvent[], run: (batch: ReceivedEvent[]) => unknown) {
  const batches = Array.from({ length: BATCHES }, next);
  const before = process.cpuUsage();
  for (const batch of batches) await run(batch);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (BATCHES * BATCH);
}

/**
 * CPU per event of the processor with a sink that costs nothing (breaker off, key mode with the
 * defaults and partition mode) against a bare loop that only decodes and validates the same events
 * (UTF-8, JSON.parse, the schema): the ratio is what the ordering, the retry wrapper and the
 * bookkeeping cost on top of reading the event at all. CPU time, not wall time, so other processes
 * on the machine count less; rounds interleave the three.
 */
export const cpuPerEventSection: BenchSection = {
  title: `CPU per event: the processor with a no-op sink vs a bare decode-and-validate loop (${BATCH}-event batches)`,
  async run({ print }) {
    const processWith = (ordering: Ordering) => {
      const processor = makeBatchProcessor({
        ...{ functionName: 'ProcessSensorEvents', sink: noOpSink, breaker: alwaysClosedGate },
        ...{ clock: systemClock, deadLetters: { write: () => Promise.resolve() } },
        retry: { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 2_000 },
        batchDeadlineMs: 60_000,
        ordering,
      });
      return (batch: ReceivedEvent[]) => processor(batch, benchContext).then(allProcessed);
    };
    const configs = [
      [
        'decode only',
        (batch: ReceivedEvent[]) => {
          for (const e of batch) decodeReading(e.body);
        },
      ],
      ['by key', processWith(defaultOrdering)],
      ['serial', processWith({ mode: 'partition', concurrency: 1 })],
    ] as const;
    for (const kind of workloads) {
      const streams = configs.map(([label]) => makeWorkload(kind, `cpu-${label.replace(' ', '-')}`, 300));
      const figures = configs.map(() => [] as number[]);
      for (let round = 0; round <= ROUNDS; round++)
        for (const [i, [, run]] of configs.entries()) {
          const micros = await cpuPerEvent(streams[i]!, run);
          if (round > 0) figures[i]?.push(micros); // round 0 warms up
        }
      const [decode, byKey, serial] = figures.map((m) => median(m));
      print(
        `cpu per event (${kind}): decode only ${decode!.toFixed(1)} µs, by key ${byKey!.toFixed(1)} µs (${(byKey! / decode!).toFixed(1)}× decode), serial ${serial!.toFixed(1)} µs (${(serial! / decode!).toFixed(1)}× decode)`,
      );
    }
  },
};
