/**
 * What a healthy hour sends to Application Insights from the worker, counted on the real functions of a
 * world with the exporter setup production registers (composition/telemetrySetup.ts behind host.json's
 * levels, the worker's log hook of composition/workerLogExport.ts): one watchdog tick and one batch of 100
 * events a minute for a simulated hour. docs/benchmarks.md scales these per-invocation figures to the
 * sizing load; the test fails when they change, so the document does not go stale quietly.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as azureFunctions from '@azure/functions';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { seededRandom } from '../../sim/host/hostConfig';
import { FUNCTION_NAME } from '../../sim/world/breakwaterWorld';
import { exportsSpan, type StartedTelemetry, startTelemetry } from '../../src/composition/telemetrySetup';
import { exportWorkerLogs } from '../../src/composition/workerLogExport';
import { readHostLogLevels } from '../../src/config/hostLogLevels';
import { settings } from '../../src/config/settings';
import { RedisWorld } from '../e2e/worlds/redisWorld';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';
import { repoRoot } from './armTemplate';

const MINUTES = 60;
const records = new InMemoryLogRecordExporter();
const spans = new InMemorySpanExporter();
let started: StartedTelemetry;
let hooks: azureFunctions.Disposable;
let redisWorld: RedisWorld;

/** Rows per kind: a record by its event name or body, a span by its name. */
const count = (names: readonly string[]) => {
  const out: Record<string, number> = {};
  for (const name of names) out[name] = (out[name] ?? 0) + 1;
  return out;
};
let recordRows: Record<string, number> = {};
/** Spans by the function whose invocation made them, then by name. */
const spanRows: Record<string, Record<string, number>> = {};
/** Healthy spans the default TELEMETRY_HEALTHY_SPANS_PERCENT exports, of all of them. */
let exportedAtDefault = 0;
const random = seededRandom(41);
const hex32 = () =>
  Math.floor(random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0');
/** The trace the host starts for each invocation (its traceparent), from a fixed seed. */
const traceContext = () => ({
  traceParent: `00-${hex32()}${hex32()}${hex32()}${hex32()}-00f067aa0ba902b7-01`,
});

/** Runs one invocation and files the spans it made under its function. */
async function invoke(name: string, invocation: Parameters<typeof invokeRpc>[1]): Promise<void> {
  spans.reset();
  await invokeRpc(name, { ...invocation, traceContext: traceContext() });
  const made = spans.getFinishedSpans();
  const mine = (spanRows[name] ??= {});
  for (const span of made) mine[span.name] = (mine[span.name] ?? 0) + 1;
  exportedAtDefault += made.filter((span) => exportsSpan(span, defaultPercent)).length;
}
const defaultPercent = Number(settings.TELEMETRY_HEALTHY_SPANS_PERCENT.default);

beforeAll(async () => {
  started = startTelemetry('volume-test', {
    spans,
    logs: records,
    simple: true,
    levels: readHostLogLevels(repoRoot),
  });
  hooks = exportWorkerLogs(azureFunctions);
  redisWorld = await RedisWorld.create(inject('storageConnectionString'));
  const world = redisWorld.world;
  await world.drainDeadLetters();
  records.reset();
  spans.reset();
  for (let minute = 0; minute < MINUTES; minute++) {
    const bodies = Array.from({ length: 100 }, (_, i) =>
      jsonBody(reading({ homeId: `home-${i % 37}`, sensorId: `s-${minute}` })),
    );
    await invoke(FUNCTION_NAME, {
      ...rpcEventBatch(bodies, { partitionId: String(minute % 4), firstSequenceNumber: minute * 100 }),
      inputData: world.durableClientInput(FUNCTION_NAME),
    });
    await invoke('BreakerWatchdog', {
      trigger: { json: JSON.stringify({ isPastDue: false }) },
      inputData: world.durableClientInput('BreakerWatchdog'),
    });
    world.clock.advance(60_000);
  }
  await started.flush();
  recordRows = count(
    records.getFinishedLogRecords().map((r) => {
      const event = r.attributes.event;
      return typeof event === 'string' ? event : `log: ${typeof r.body === 'string' ? r.body : ''}`;
    }),
  );
}, 120_000);

afterAll(async () => {
  hooks.dispose();
  await redisWorld.close();
  await started.shutdown();
});

describe('a healthy hour, as the worker exports it (one batch of 100 and one watchdog tick a minute)', () => {
  it('traces: the heartbeat once a minute, nothing per batch (its summary is Information, kept at Warning)', () => {
    expect(recordRows).toEqual({ 'Breakwater.Heartbeat': MINUTES });
  });

  it('dependencies: per batch a sink write per home and one Redis read; per tick three Redis and two ARM reads', () => {
    // 100 events of 37 homes: the Table sink writes each home's newest reading once.
    expect(spanRows).toEqual({
      [FUNCTION_NAME]: { 'sink table write': 37 * MINUTES, 'redis getState': MINUTES },
      BreakerWatchdog: { 'redis getState': 3 * MINUTES, 'ARM POST app settings': 2 * MINUTES },
    });
  });

  it('at the default percent, every ARM span and about that share of the sink and Redis spans leave', () => {
    expect(defaultPercent).toBe(1);
    const bulk = (37 + 1 + 3) * MINUTES;
    const sampled = exportedAtDefault - 2 * MINUTES;
    expect(sampled).toBeGreaterThanOrEqual(0);
    expect(sampled).toBeLessThan(bulk * 0.05);
  });

  it('docs/benchmarks.md states these figures', () => {
    const doc = readFileSync(resolve(repoRoot, 'docs/benchmarks.md'), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('`test/deploy/telemetryVolume.test.ts`');
    expect(doc).toContain('one sink write per key in the batch and 1 Redis read per batch');
    expect(doc).toContain('3 Redis reads and 2 ARM reads per watchdog tick');
  });
});
