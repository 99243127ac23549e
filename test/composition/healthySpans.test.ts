/**
 * TELEMETRY_HEALTHY_SPANS_PERCENT on the providers production registers: healthy sink and Redis spans are
 * exported for the traces in the percent, whole; failed spans and every other span always.
 */
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemoryLogRecordExporter } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { exportsSpan, type StartedTelemetry, startTelemetry } from '../../src/composition/telemetrySetup';

const spans = new InMemorySpanExporter();
let started: StartedTelemetry;
beforeAll(() => {
  started = startTelemetry('spans-test', {
    spans,
    logs: new InMemoryLogRecordExporter(),
    simple: true,
    healthySpansPercent: 25,
  });
});
afterAll(() => started.shutdown());

/** The trace id's low 32 bits pick the share: 0x3fffffff is just under 25 %, 0x40000000 just over. */
const IN = '0af7651916cd43dd84480000' + '3fffffff';
const OUT = '0af7651916cd43dd84480000' + '40000000';

/** Spans of one invocation whose trace the host started (its traceparent). */
function inTrace(traceId: string, make: () => void): void {
  const parent = propagation.extract(context.active(), { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
  context.with(parent, make);
}

function span(name: string, failed = false): void {
  const s = trace.getTracer('test').startSpan(name);
  if (failed) s.setStatus({ code: SpanStatusCode.ERROR });
  s.end();
}

describe('healthy bulk spans, sampled by trace', () => {
  it('keeps the sink and Redis spans of a trace in the percent, all of them', () => {
    spans.reset();
    inTrace(IN, () => {
      span('sink table write');
      span('redis getState');
    });
    expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(['sink table write', 'redis getState']);
  });

  it('leaves out those of a trace outside it, but never a failed one or another kind', () => {
    spans.reset();
    inTrace(OUT, () => {
      span('sink table write');
      span('redis getState');
      span('sink POST', true);
      span('ARM PUT app settings');
      span('webhook POST');
    });
    expect(spans.getFinishedSpans().map((s) => s.name)).toEqual([
      'sink POST',
      'ARM PUT app settings',
      'webhook POST',
    ]);
  });

  it('0 keeps no healthy bulk span, 100 keeps every one', () => {
    const at = (traceId: string, percent: number) =>
      exportsSpan(
        {
          name: 'sink POST',
          status: { code: SpanStatusCode.OK },
          spanContext: () => ({ traceId, spanId: '00f067aa0ba902b7', traceFlags: 1 }),
        },
        percent,
      );
    expect(at('0'.repeat(32), 0)).toBe(false);
    expect(at('f'.repeat(32), 100)).toBe(true);
    expect(at(IN, 25)).toBe(true);
    expect(at(OUT, 25)).toBe(false);
  });
});
