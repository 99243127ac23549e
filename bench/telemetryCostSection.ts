import { context, trace } from '@opentelemetry/api';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SamplingDecision,
} from '@opentelemetry/sdk-trace-base';

import { alwaysClosedGate } from '../src/breaker/breakerGate';
import { type StartedTelemetry, startTelemetry } from '../src/composition/telemetrySetup';
import { systemClock } from '../src/kernel/clock';
import { makeBatchProcessor } from '../src/processing/batchProcessor';
import { makeHttpActivitySink } from '../src/sinks/httpActivitySink';
import type { BenchSection } from './benchSection';
import { startFixedDelayApi } from './fixedDelayApi';
import { median } from './measure';
import { allProcessed, BATCH, benchContext, makeWorkload } from './sinkWorkload';

const BATCHES = 80;
const ROUNDS = 6;

/**
 * The telemetry a configuration registers: none, every span, or the default healthy share; and two
 * that say where the cost is (not options of the app): the default share with the sink spans made
 * non-recording at their start (a sampler, so no span object, attributes or processors), and the
 * default share without the async-local context manager (no span is then parented to its invocation).
 */
const configs = [
  ['off', undefined],
  ['on, every span', 100],
  ['on, default 1 % of healthy spans', 1],
  ['sink spans non-recording at start', 1],
  ['no async-local context', 1],
] as const;

/** Swaps the tracer provider for one whose sampler drops every sink span at its start (here every span is one). */
function sinkSpansNonRecording(spans: InMemorySpanExporter): () => Promise<void> {
  trace.disable();
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(spans)],
    sampler: {
      shouldSample: (_context, _traceId, name) => ({
        decision: name.startsWith('sink ')
          ? SamplingDecision.NOT_RECORD
          : SamplingDecision.RECORD_AND_SAMPLED,
      }),
      toString: () => 'SinkSpansNonRecording',
    },
  });
  trace.setGlobalTracerProvider(provider);
  return () => provider.shutdown();
}

/**
 * CPU per event of the batch processor with the real HTTP API sink (one `sink POST` span per write)
 * against a local API answering at once: with no telemetry registered (the API's no-op tracer), with the
 * providers production registers (batch processors, environment stamping, the healthy-span share) and
 * an in-memory exporter taking every span, and with the default share. The configurations take turns
 * round by round, in a rotating order; CPU time of this process (the API runs in a process of its own).
 */
export const telemetryCostSection: BenchSection = {
  title: `Telemetry cost: CPU per event, HTTP API sink, ${BATCH}-event batches, exporters off vs on`,
  async run({ print }) {
    const api = await startFixedDelayApi(0);
    try {
      const sink = makeHttpActivitySink({
        url: api.url,
        healthUrl: api.healthUrl,
        timeoutMs: 10_000,
        keyPrefix: 'bench-telemetry',
      });
      const processor = makeBatchProcessor({
        ...{ functionName: 'ProcessSensorEvents', sink, breaker: alwaysClosedGate, clock: systemClock },
        deadLetters: { write: () => Promise.resolve() },
        retry: { maxAttempts: 4, initialDelayMs: 200, maxDelayMs: 2_000 },
        batchDeadlineMs: 60_000,
      });
      const streams = configs.map(([label]) => makeWorkload('spread', `otel-${label.length}`, 300));
      const figures = configs.map(() => [] as number[]);
      const exported = configs.map(() => 0);
      for (let round = 0; round <= ROUNDS; round++)
        for (const i of configs.map((_, k) => (k + round) % configs.length)) {
          const percent = configs[i]![1];
          const spans = new InMemorySpanExporter();
          const started: StartedTelemetry | undefined =
            percent === undefined
              ? undefined
              : startTelemetry('bench', {
                  spans,
                  logs: new InMemoryLogRecordExporter(),
                  healthySpansPercent: percent,
                });
          const swapped = i === 3 ? sinkSpansNonRecording(spans) : undefined;
          if (i === 4) context.disable();
          const batches = Array.from({ length: BATCHES }, streams[i]!);
          const before = process.cpuUsage();
          for (const batch of batches) await processor(batch, benchContext).then(allProcessed);
          await started?.flush();
          const used = process.cpuUsage(before);
          const count = spans.getFinishedSpans().length;
          await swapped?.();
          await started?.shutdown();
          if (round === 0) continue; // warms up
          figures[i]!.push((used.user + used.system) / (BATCHES * BATCH));
          exported[i]! += count;
        }
      const [off, all, share, nonRecording, noContext] = figures.map((m) => median(m));
      const events = ROUNDS * BATCHES * BATCH;
      print(
        `telemetry cost per event: off ${off!.toFixed(1)} µs, on ${all!.toFixed(1)} µs (${(all! / off!).toFixed(2)}×), on at the default share ${share!.toFixed(1)} µs (${(share! / off!).toFixed(2)}×)`,
      );
      print(
        `where it is: sink spans non-recording at start ${nonRecording!.toFixed(1)} µs (${(nonRecording! / off!).toFixed(2)}×), no async-local context ${noContext!.toFixed(1)} µs (${(noContext! / off!).toFixed(2)}×)`,
      );
      print(
        `spans exported per event: every span ${(exported[1]! / events).toFixed(2)}, default share ${(exported[2]! / events).toFixed(3)}`,
      );
    } finally {
      await api.close();
    }
  },
};
