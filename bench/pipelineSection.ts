// The fake @azure/functions-core (as in the end-to-end tests) must be in place before @azure/functions loads.
import '../sim/host/fakeFunctionsCore';

import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { app, type EventHubFunctionOptions } from '@azure/functions';

import { EventHubModel } from '../sim/host/eventHubModel';
import { localAppEnv } from '../sim/host/localAppEnv';
import { SimClock } from '../sim/host/simClock';
import { TriggerHostModel } from '../sim/host/triggerHostModel';
import { alwaysClosedGate } from '../src/breaker/breakerGate';
import { createRuntime, installRuntime, type Runtime } from '../src/composition/runtime';
import type { SensorReading } from '../src/hub/sensorReading';
import type { ActivitySink } from '../src/sinks/activitySink';
import type { BenchSection } from './benchSection';
import { fmt, median, pct } from './measure';

const PARTITIONS = 16;
const EVENTS_PER_PARTITION = 600;
const ROUNDS = 21;
const WARMUP_ROUNDS = 2;

/**
 * The downstream for every configuration: an in-memory view behind one event-loop turn per write, so
 * the figure is what the pipeline costs (host model, programming model, handler, processor, breaker)
 * and not the noise of a local Azurite Table shared with other processes (it manages a few hundred
 * writes per second here).
 */
function memorySink(): ActivitySink {
  const view = new Map<string, number>();
  return {
    write: async (reading, event) => {
      await nextTurn();
      view.set(`${reading.homeId}/${reading.sensorId}`, event.sequenceNumber ?? 0);
      return 'applied';
    },
    probe: () => Promise.resolve(),
  };
}

interface PipelineConfig {
  readonly label: string;
  readonly functionName: string;
  readonly runtime: Runtime;
}

function reading(i: number, now: number): Buffer {
  const value: SensorReading = {
    homeId: `home-${i % 5000}`,
    sensorId: `door-${i % 3}`,
    kind: 'contact',
    state: i % 2 === 0 ? 'open' : 'closed',
    occurredAt: new Date(now).toISOString(),
  };
  return Buffer.from(JSON.stringify(value));
}

/**
 * Registers the guarded trigger under its own name for one runtime, through the real programming model,
 * with the production handler factory and retry policy (no durable client: nothing trips on the happy path).
 */
export async function register(functionName: string, runtime: Runtime): Promise<void> {
  const { makeProcessHandler } = await import('../src/processing/processHandler');
  const retry = runtime.config.triggerRetry;
  // `dataType` is a binding property the library passes through but does not type (as in the app).
  const options: EventHubFunctionOptions & { dataType: 'binary' } = {
    connection: runtime.config.eventHub.connectionSetting,
    eventHubName: 'sensor-readings',
    consumerGroup: 'breakwater',
    cardinality: 'many',
    dataType: 'binary',
    retry: {
      strategy: 'exponentialBackoff',
      maxRetryCount: retry.maxRetryCount,
      minimumInterval: { seconds: retry.minimumIntervalSeconds },
      maximumInterval: { seconds: retry.maximumIntervalSeconds },
    },
    handler: makeProcessHandler({ processBatch: runtime.processBatch, triggerRetry: retry }),
  };
  app.eventHub(functionName, options);
}

/** One round of a configuration: a fresh hub, every event delivered by the host model; events per second. */
async function round(config: PipelineConfig, n: number): Promise<number> {
  const clock = new SimClock(Date.now());
  const hub = new EventHubModel(PARTITIONS);
  for (let i = 0; i < PARTITIONS * EVENTS_PER_PARTITION; i++)
    hub.sendTo(String(i % PARTITIONS), reading(n * 100_000 + i, clock.now()), { round: n }, clock.now());
  const host = new TriggerHostModel({
    functionName: config.functionName,
    hub,
    clock,
    isDisabled: () => Promise.resolve(false),
  });
  const started = performance.now();
  while (!host.drained) {
    await host.tick();
    clock.advance(1000);
  }
  const seconds = (performance.now() - started) / 1000;
  if (host.invocations.some((i) => i.outcome !== 'returned'))
    throw new Error(`${config.label}: an invocation threw`);
  return (PARTITIONS * EVENTS_PER_PARTITION) / seconds;
}

/**
 * End to end through the host model: RPC-shaped batches → @azure/functions → the trigger handler →
 * batch processor → an in-memory sink, 16 partitions in parallel. "Off" never consults the
 * breaker (`alwaysClosedGate`); "on" is the store-backed gate (state cached for 1 s). The configurations
 * alternate round by round in rotating order; medians over the rounds after warm-up.
 */
export const pipelineSection: BenchSection = {
  title: `Pipeline end to end through the host model, breaker off vs on (${PARTITIONS} partitions × ${EVENTS_PER_PARTITION} events, in-memory sink, ${ROUNDS} rounds interleaved)`,
  async run({ redisUrl, storageConnectionString, print }) {
    const env = (store: 'redis' | 'table') =>
      localAppEnv(storageConnectionString, 'pipe', {
        BREAKER_STORE: store,
        REDIS_CONNECTION: redisUrl,
        TRIGGER_CONTROL: 'local',
        EMAIL_PROVIDER: 'log',
      });
    const configs: PipelineConfig[] = [
      {
        label: 'off',
        functionName: 'PipelineBreakerOff',
        runtime: createRuntime(env('redis'), { breakerGate: alwaysClosedGate, decorateSink: memorySink }),
      },
      {
        label: 'on (Redis)',
        functionName: 'PipelineBreakerRedis',
        runtime: createRuntime(env('redis'), { decorateSink: memorySink }),
      },
      {
        label: 'on (Table)',
        functionName: 'PipelineBreakerTable',
        runtime: createRuntime(env('table'), { decorateSink: memorySink }),
      },
    ];
    const [first] = configs;
    if (first) installRuntime(first.runtime); // the handler module reads the installed runtime when it loads
    for (const c of configs) await register(c.functionName, c.runtime);

    const rates = new Map<string, number[]>(configs.map((c) => [c.label, []]));
    // Per round, each configuration's rate relative to "off" in the same round (run back to back).
    const pairedRatios = new Map<string, number[]>(configs.map((c) => [c.label, []]));
    for (let r = -WARMUP_ROUNDS; r < ROUNDS; r++) {
      const offset = ((r % configs.length) + configs.length) % configs.length;
      const thisRound = new Map<string, number>();
      for (let i = 0; i < configs.length; i++) {
        const config = configs[(offset + i) % configs.length];
        if (!config) continue;
        thisRound.set(config.label, await round(config, r + WARMUP_ROUNDS));
      }
      if (r < 0) continue;
      const offRate = thisRound.get('off') ?? Number.NaN;
      for (const [label, rate] of thisRound) {
        rates.get(label)?.push(rate);
        pairedRatios.get(label)?.push(rate / offRate);
      }
    }

    print(`Measured on ${os.cpus().length} vCPU (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}`);
    const off = median(rates.get('off') ?? []);
    for (const c of configs) {
      const values = rates.get(c.label) ?? [];
      const m = median(values);
      const range = `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
      const paired = median(pairedRatios.get(c.label) ?? []);
      const ratio =
        c.label === 'off'
          ? ''
          : `   on/off: ratio of medians ${(m / off).toFixed(3)}, median per-round ratio ${paired.toFixed(3)} (${pct(paired)})`;
      print(`  ${c.label.padEnd(11)} median ${fmt(m).padStart(6)} events/s  (rounds ${range})${ratio}`);
    }
    await Promise.all(configs.map((c) => c.runtime.breakerStore.close()));
  },
};
