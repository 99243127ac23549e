// The fake @azure/functions-core (as in the end-to-end tests) must be in place before @azure/functions loads.
import '../sim/host/fakeFunctionsCore';

import { RestError } from '@azure/core-rest-pipeline';

import { EventHubModel } from '../sim/host/eventHubModel';
import { localAppEnv } from '../sim/host/localAppEnv';
import { SimClock } from '../sim/host/simClock';
import { TriggerHostModel } from '../sim/host/triggerHostModel';
import { createRuntime, installRuntime, type Runtime } from '../src/composition/runtime';
import type { SensorReading } from '../src/hub/sensorReading';
import type { OutagePolicy } from '../src/processing/batchProcessor';
import type { ActivitySink } from '../src/sinks/activitySink';
import type { BenchSection } from './benchSection';
import { register } from './pipelineSection';

const PARTITIONS = 16;
// About the running example's load: 100,000 homes, a few sensors each, a reading every few minutes.
const EVENTS_PER_SECOND = 1_000;
const DOWN_FROM = 10;
const DOWN_SECONDS = 60;

interface OutageConfig {
  readonly label: string;
  readonly functionName: string;
  readonly settings: Record<string, string>;
  readonly outagePolicy?: OutagePolicy;
}

/** "Before": outage failures dead-lettered while CLOSED, every event of a batch tried. */
const configs: readonly OutageConfig[] = [
  {
    label: 'before',
    functionName: 'OutageBefore',
    settings: { FAIL_FAST_AFTER: '0' },
    outagePolicy: 'dead-letter',
  },
  { label: 'after', functionName: 'OutageAfter', settings: {} },
];

interface OutageFigures {
  readonly callsUntilHeld: number;
  readonly callsWhileDown: number;
  readonly secondsToOpen: number | undefined;
  readonly heldRuns: number;
}

/** An in-memory downstream behind a switch that refuses every write with a 503 while down, counting calls. */
function switchedSink(down: () => boolean, calls: { at: number; down: boolean }[], now: () => number) {
  const view = new Map<string, number>();
  return (): ActivitySink => ({
    write: (reading, event) => {
      calls.push({ at: now(), down: down() });
      if (down()) return Promise.reject(new RestError('downstream unavailable', { statusCode: 503 }));
      view.set(`${reading.homeId}/${reading.sensorId}`, event.sequenceNumber ?? 0);
      return Promise.resolve('applied');
    },
    probe: () =>
      down()
        ? Promise.reject(new RestError('downstream unavailable', { statusCode: 503 }))
        : Promise.resolve(),
  });
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

async function run(
  config: OutageConfig,
  runtime: Runtime,
  clock: SimClock,
  state: { down: boolean },
  calls: { at: number; down: boolean }[],
): Promise<OutageFigures> {
  const hub = new EventHubModel(PARTITIONS);
  const host = new TriggerHostModel({
    functionName: config.functionName,
    hub,
    clock,
    isDisabled: () => Promise.resolve(false),
  });
  const start = clock.now();
  let openedAt: number | undefined;
  let sent = 0;
  for (let second = 0; second < DOWN_FROM + DOWN_SECONDS; second++) {
    state.down = second >= DOWN_FROM;
    for (let k = 0; k < EVENTS_PER_SECOND; k++, sent++)
      hub.send(`home-${sent % 5000}`, reading(sent, clock.now()), { n: sent }, clock.now());
    await host.tick();
    if (openedAt === undefined && (await runtime.breakerStore.getState()).state === 'OPEN')
      openedAt = clock.now();
    clock.advance(1000);
  }
  const downAt = start + DOWN_FROM * 1000;
  const down = calls.filter((c) => c.down);
  // Every instance holds once the OPEN state is in every cache: from then on no call reaches the downstream.
  const heldFrom = (openedAt ?? Number.POSITIVE_INFINITY) + runtime.config.breaker.stateCacheMs;
  return {
    callsUntilHeld: down.filter((c) => c.at < heldFrom).length,
    callsWhileDown: down.length,
    secondsToOpen: openedAt === undefined ? undefined : (openedAt - downAt) / 1000,
    heldRuns: host.invocations.filter((i) => i.outcome === 'threw').length,
  };
}

/**
 * Dead-lettering vs holding on an outage, in one run: the same workload and outage through the host model,
 * the real handler, processor and Table breaker store (app defaults: more than 100 failures in 30 s, 4
 * attempts per event, host re-runs 5 s → 30 s). "Before" is the outage policy `dead-letter` (set in
 * code: it is not an app setting) with FAIL_FAST_AFTER=0, the processing of the previous release. Downstream calls are counted from the first
 * failure until every instance holds (OPEN seen through the state cache), and over the whole outage.
 */
export const outageSection: BenchSection = {
  title: `Downstream calls during an outage, before vs after holding (${PARTITIONS} partitions, ${EVENTS_PER_SECOND} events/s, ${DOWN_SECONDS} s down, host model)`,
  async run({ storageConnectionString, print }) {
    const results = new Map<string, OutageFigures & { letters: number }>();
    let installed = false;
    for (const config of configs) {
      const clock = new SimClock(Date.UTC(2026, 0, 1));
      const state = { down: false };
      const calls: { at: number; down: boolean }[] = [];
      const env = localAppEnv(storageConnectionString, 'outage', {
        BREAKER_STORE: 'table',
        TRIGGER_CONTROL: 'local',
        EMAIL_PROVIDER: 'log',
        ...config.settings,
      });
      const runtime = createRuntime(env, {
        clock,
        ...(config.outagePolicy ? { outagePolicy: config.outagePolicy } : {}),
        decorateSink: switchedSink(
          () => state.down,
          calls,
          () => clock.now(),
        ),
      });
      if (!installed) installRuntime(runtime); // the handler module reads the installed runtime when it loads
      installed = true;
      await register(config.functionName, runtime);
      const figures = await run(config, runtime, clock, state, calls);
      const queue = runtime.storage.queue(runtime.config.processing.deadLetterQueue);
      // No queue means nothing was ever dead-lettered.
      const letters = await queue.getProperties().then(
        (p) => p.approximateMessagesCount ?? 0,
        () => 0,
      );
      results.set(config.label, { ...figures, letters });
      await runtime.breakerStore.close();
    }
    for (const [label, r] of results)
      print(
        `  ${label.padEnd(6)} calls from first failure until every instance holds ${String(r.callsUntilHeld).padStart(6)}, ` +
          `while down ${String(r.callsWhileDown).padStart(6)}; down → OPEN ${r.secondsToOpen ?? 'never'} s; ` +
          `dead letters ${r.letters}; held runs ${r.heldRuns}`,
      );
    const before = results.get('before');
    const after = results.get('after');
    if (before && after)
      print(
        `  after/before: calls until held ${(after.callsUntilHeld / Math.max(1, before.callsUntilHeld)).toFixed(3)}`,
      );
  },
};
