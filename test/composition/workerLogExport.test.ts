/**
 * The worker's log export in OpenTelemetry mode, through the real `@azure/functions` library and the
 * worker's hook calls (sim/host/fakeFunctionsCore.ts), with the providers production registers and the
 * app's own host.json levels: one record per app event, the levels honoured, the host told the worker
 * exports, and the invocation's trace the parent of the app's spans.
 */
import { resolve } from 'node:path';
import * as azureFunctions from '@azure/functions';
import { trace } from '@opentelemetry/api';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fakeCore, invokeRpc, resetRegistrations } from '../../sim/host/fakeFunctionsCore';
import { type StartedTelemetry, startTelemetry } from '../../src/composition/telemetrySetup';
import { exportWorkerLogs } from '../../src/composition/workerLogExport';
import { readHostLogLevels } from '../../src/config/hostLogLevels';
import { categoryAttribute, emitEvent, eventAttribute, functionAttribute } from '../../src/kernel/appEvent';
import { telemetry } from '../../src/kernel/telemetryNames';

const records = new InMemoryLogRecordExporter();
const spans = new InMemorySpanExporter();
let started: StartedTelemetry;
let hooks: azureFunctions.Disposable;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';

beforeAll(() => {
  resetRegistrations();
  started = startTelemetry('log-export-test', {
    spans,
    logs: records,
    simple: true,
    levels: readHostLogLevels(resolve(__dirname, '../..')),
  });
  hooks = exportWorkerLogs(azureFunctions);
  // Two of the app's function names: host.json keeps the watchdog's Information, the trigger's Warning.
  azureFunctions.app.timer('BreakerWatchdog', {
    schedule: '0 * * * * *',
    handler: (_timer, context) => {
      context.log('watchdog: a plain line');
      context.warn('watchdog: GET https://x.example/api/approve?token=abc.def&code=fn-key failed');
      context.debug('watchdog: a debug line');
      emitEvent(context, 'warn', 'retentionSaved', {
        partitionId: '0',
        saved: 3,
        from: 10,
        through: 12,
        where: 'saved/0/',
      });
      trace.getTracer('test').startSpan('downstream call').end();
    },
  });
  azureFunctions.app.timer('ProcessSensorEvents', {
    schedule: '0 * * * * *',
    handler: (_timer, context) => {
      context.log('trigger: an information line');
      context.warn('trigger: a warning\nwith a second line');
      emitEvent(context, 'log', 'heartbeat', {
        state: 'CLOSED',
        tripId: null,
        openSeconds: 0,
        triggerDisabled: false,
        deadLetters: 0,
        storeReachable: true,
        waitingEvents: null,
        stalledSeconds: null,
        maintenanceSeconds: null,
        timeToFirstLossSeconds: null,
        savedEvents: null,
      });
    },
  });
});

afterAll(async () => {
  hooks.dispose();
  resetRegistrations();
  await started.shutdown();
});

const timer = { trigger: { json: JSON.stringify({ isPastDue: false }) } };
const bodies = () => records.getFinishedLogRecords().map((r) => (typeof r.body === 'string' ? r.body : ''));

describe('the worker exports its logs itself (OpenTelemetry mode)', () => {
  it('tells the host so: the host then exports no Function.* logs of its own', async () => {
    const capabilities = await (
      fakeCore.programmingModel as unknown as {
        getCapabilities(c: Record<string, string>): Promise<Record<string, string>>;
      }
    ).getCapabilities({});
    expect(capabilities.WorkerOpenTelemetryEnabled).toBe('true');
  });

  it('writes an app event once: its record with the fields, not the line as well', async () => {
    records.reset();
    const run = await invokeRpc('BreakerWatchdog', timer);
    // The line still reaches the host's log (func start, the host's own sinks).
    expect(run.logs.map((l) => l.message)).toContain(
      'Breakwater.RetentionSaved {"partitionId":"0","saved":3,"from":10,"through":12,"where":"saved/0/"}',
    );
    const saved = records
      .getFinishedLogRecords()
      .filter((r) => (typeof r.body === 'string' ? r.body : '').includes(telemetry.retentionSaved.name));
    expect(saved).toHaveLength(1);
    expect(saved[0]?.attributes).toMatchObject({
      [eventAttribute]: telemetry.retentionSaved.name,
      [functionAttribute]: 'BreakerWatchdog',
      saved: 3,
    });
  });

  it("honours host.json's levels per function: the watchdog's Information, not its Debug", async () => {
    records.reset();
    await invokeRpc('BreakerWatchdog', timer);
    expect(bodies()).toContain('watchdog: a plain line');
    expect(bodies()).not.toContain('watchdog: a debug line');
    const plain = records.getFinishedLogRecords().find((r) => r.body === 'watchdog: a plain line');
    expect(plain?.attributes).toMatchObject({
      [functionAttribute]: 'BreakerWatchdog',
      [categoryAttribute]: 'Function.BreakerWatchdog.User',
    });
  });

  it('masks secret shapes in what it exports (a token or key in a URL)', async () => {
    records.reset();
    await invokeRpc('BreakerWatchdog', timer);
    expect(bodies()).toContain('watchdog: GET https://x.example/api/approve?token=***&code=*** failed');
    expect(bodies().join(' ')).not.toMatch(/abc\.def|fn-key/);
  });

  it("and the trigger's Warning: its information lines and events stay in the process", async () => {
    records.reset();
    await invokeRpc('ProcessSensorEvents', timer);
    expect(bodies()).toEqual(['trigger: a warning with a second line']);
    expect(records.getFinishedLogRecords()[0]?.severityText).toBe('warning');
  });

  it("makes the invocation's trace the parent of the app's spans", async () => {
    spans.reset();
    await invokeRpc('BreakerWatchdog', {
      ...timer,
      traceContext: { traceParent: `00-${TRACE_ID}-${PARENT_SPAN}-01` },
    });
    const [span] = spans.getFinishedSpans();
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext?.spanId).toBe(PARENT_SPAN);
  });
});
