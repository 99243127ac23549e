import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeStoreBreakerGate } from '../../src/breaker/storeBreakerGate';
import { type StartedTelemetry, startTelemetry } from '../../src/composition/telemetrySetup';
import { eventAttribute } from '../../src/kernel/appEvent';
import { telemetry } from '../../src/kernel/telemetryNames';
import {
  type BatchContext,
  makeBatchProcessor,
  withHeldBatchTelemetry,
} from '../../src/processing/batchProcessor';
import { makeHttpActivitySink } from '../../src/sinks/httpActivitySink';
import { emitHeartbeat } from '../../src/watchdog/heartbeat';
import { T0 } from '../breaker/breakerStoreFixture';
import { breakerStores } from '../processing/sharedBreakerFixture';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';

/**
 * What an SRE queries after a trip, captured by in-memory exporters on the same providers production
 * registers (composition/telemetrySetup.ts): a downstream answering 503 behind the real HTTP sink, the
 * Redis breaker store, the batch processor as the trigger runs it, then the watchdog's heartbeat.
 */
const spans = new InMemorySpanExporter();
const records = new InMemoryLogRecordExporter();
let started: StartedTelemetry;
let server: Server;
let url: string;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  started = startTelemetry('breakwater-test', { spans, logs: records, simple: true });
  server = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    response.writeHead(503).end('down for maintenance');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await started.shutdown();
  await new Promise((resolve) => server.close(resolve));
});

const { redisStore } = breakerStores();

/** The records of one event, their attributes (customDimensions in Application Insights). */
const recordsOf = (name: string) =>
  records
    .getFinishedLogRecords()
    .filter((r) => r.attributes[eventAttribute] === name)
    .map((r) => r.attributes);

async function tripOnce() {
  const store = redisStore();
  const clock = { now: () => T0 };
  const logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
  const processBatch = withHeldBatchTelemetry(
    makeBatchProcessor({
      functionName: 'ProcessSensorEvents',
      sink: makeHttpActivitySink({
        url: `${url}/readings`,
        healthUrl: `${url}/health`,
        timeoutMs: 2_000,
        keyPrefix: 't',
      }),
      deadLetters: { write: () => Promise.resolve() },
      breaker: makeStoreBreakerGate({ store, clock, stateCacheMs: 0, logger, outageLogIntervalMs: 60_000 }),
      clock,
      retry: { maxAttempts: 1, initialDelayMs: 1, maxDelayMs: 1 },
      batchDeadlineMs: 10_000,
    }),
    clock,
  );
  // The trigger's InvocationContext: its functionName is the records' `function` dimension.
  const context: BatchContext = {
    invocationId: 'inv-1',
    logger: { ...logger, functionName: 'ProcessSensorEvents' },
    finalAttempt: false,
  };
  const events = Array.from({ length: 8 }, (_, i) =>
    receivedEvent(jsonBody(reading({ homeId: `home-${i}` })), i),
  );
  await processBatch(events, context).catch(() => undefined);
  const state = await store.getState();
  await emitHeartbeat(
    {
      store,
      triggerSwitch: { readSwitch: () => Promise.resolve({ disabled: true, disabledBy: [], forms: [] }) },
      deadLetterCount: () => Promise.resolve(0),
      clock,
      functionName: 'ProcessSensorEvents',
    },
    { ...logger, functionName: 'BreakerWatchdog' },
  );
  await started.flush();
  return { state, partitionId: events[0]?.partitionId };
}

describe('a trip, as the telemetry an SRE queries shows it', () => {
  let trip: Awaited<ReturnType<typeof tripOnce>>;
  beforeAll(async () => {
    trip = await tripOnce();
  });

  it('opens the breaker (the scenario itself)', () => {
    expect(trip.state.state).toBe('OPEN');
    expect(trip.state.tripId).toBeDefined();
  });

  it('leaves a BreakerOpened record with the trip, the function and the environment as dimensions', () => {
    const opened = recordsOf(telemetry.breakerOpened.name);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      tripId: trip.state.tripId,
      function: 'ProcessSensorEvents',
      environment: 'breakwater-test',
    });
    expect(Number(opened[0]?.failuresInWindow)).toBeGreaterThan(5);
  });

  it('leaves a BatchHeld record naming the partition and the reason', () => {
    const held = recordsOf(telemetry.batchHeld.name);
    expect(held.length).toBeGreaterThan(0);
    expect(held[0]).toMatchObject({
      reason: 'circuit-open',
      partitionId: trip.partitionId,
      events: 8,
      function: 'ProcessSensorEvents',
      environment: 'breakwater-test',
    });
  });

  it("leaves the watchdog's heartbeat with the state OPEN and the same trip", () => {
    expect(recordsOf(telemetry.heartbeat.name)).toEqual([
      expect.objectContaining({
        state: 'OPEN',
        tripId: trip.state.tripId,
        triggerDisabled: true,
        function: 'BreakerWatchdog',
        environment: 'breakwater-test',
      }),
    ]);
  });

  it('shows each sink request as a failed HTTP dependency span whose traceparent reached the downstream', () => {
    const sinkSpans = spans.getFinishedSpans().filter((s) => s.name === 'sink POST');
    expect(sinkSpans.length).toBe(received.length);
    expect(sinkSpans.length).toBeGreaterThan(0);
    for (const span of sinkSpans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes).toMatchObject({
        'http.request.method': 'POST',
        'url.full': `${url}/readings`,
        'http.response.status_code': 503,
        environment: 'breakwater-test',
      });
    }
    const parents = received.map((h) => h.traceparent);
    const expected = sinkSpans.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`);
    expect(parents.sort()).toEqual(expected.sort());
  });

  it('shows the breaker store calls as Redis dependency spans', () => {
    const redis = spans.getFinishedSpans().filter((s) => s.attributes['db.system'] === 'redis');
    expect(redis.map((s) => s.name)).toEqual(expect.arrayContaining(['redis record', 'redis getState']));
    for (const span of redis) expect(span.kind).toBe(SpanKind.CLIENT);
  });
});
