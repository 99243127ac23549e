import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { logs, SeverityNumber } from '@opentelemetry/api-logs';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
  type LogRecordProcessor,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import type { HostLogLevels } from '../config/hostLogLevels';
import { categoryAttribute, functionAttribute } from '../kernel/appEvent';
import { logCategory } from './workerLogExport';

/**
 * The export processor behind host.json's levels. A record's category is the one the worker's log hook
 * gave it, else that of the function it came from (`Function.<name>.User`: the app's events), else the
 * category of output outside an invocation.
 */
function keptAtLevel(levels: HostLogLevels, inner: LogRecordProcessor): LogRecordProcessor {
  return {
    onEmit: (record, context) => {
      const given = record.attributes[categoryAttribute];
      const fn = record.attributes[functionAttribute];
      const category =
        typeof given === 'string' ? given : logCategory(typeof fn === 'string' ? fn : undefined, 'user');
      if (levels.keeps(category, record.severityNumber ?? SeverityNumber.UNSPECIFIED))
        inner.onEmit(record, context);
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

/** The spans made per event or per batch (sink calls, Redis breaker-store calls): the bulk of the rows. */
const bulkSpanPrefixes = ['sink ', 'redis '] as const;

/**
 * Whether a finished span is exported: always when it failed or is not a bulk span; a healthy bulk span
 * when its trace falls in the percent (the trace id's low 32 bits, as OpenTelemetry's trace-id ratio
 * sampler reads them), so the spans of one invocation (one trace) are kept or left out together.
 */
export function exportsSpan(
  span: Pick<ReadableSpan, 'name' | 'status' | 'spanContext'>,
  percent: number,
): boolean {
  if (span.status.code === SpanStatusCode.ERROR) return true;
  if (!bulkSpanPrefixes.some((prefix) => span.name.startsWith(prefix))) return true;
  const low = Number.parseInt(span.spanContext().traceId.slice(-8), 16);
  return low < (percent / 100) * 2 ** 32;
}

function healthySpansSampled(percent: number, inner: SpanProcessor): SpanProcessor {
  return {
    onStart: (span, parent) => {
      inner.onStart(span, parent);
    },
    onEnd: (span) => {
      if (exportsSpan(span, percent)) inner.onEnd(span);
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

/** The dimension every record and span carries: which deployment (ENVIRONMENT_NAME) it came from. */
export const environmentAttribute = 'environment';

export interface TelemetryExporters {
  readonly spans: SpanExporter;
  readonly logs: LogRecordExporter;
  /** Export each record and span as it ends (tests); otherwise in batches (Azure). */
  readonly simple?: boolean;
  /** host.json's log levels: a record below its category's level is not exported. */
  readonly levels?: HostLogLevels;
  /** Percent of the healthy sink and Redis spans exported (TELEMETRY_HEALTHY_SPANS_PERCENT); unset: all. */
  readonly healthySpansPercent?: number;
}

export interface StartedTelemetry {
  readonly flush: () => Promise<void>;
  readonly shutdown: () => Promise<void>;
}

/**
 * Registers the process's OpenTelemetry providers: records and client spans to the exporters, the
 * environment stamped on each, W3C trace context for outgoing requests, and an async-local context
 * so a span started in one await is the parent of the next. Production passes the Azure Monitor
 * exporters (composition/azureMonitorTelemetry.ts), the tests in-memory ones.
 */
export function startTelemetry(environmentName: string, exporters: TelemetryExporters): StartedTelemetry {
  const spanProcessor = exporters.simple
    ? new SimpleSpanProcessor(exporters.spans)
    : new BatchSpanProcessor(exporters.spans);
  const logProcessor = exporters.simple
    ? new SimpleLogRecordProcessor({ exporter: exporters.logs })
    : new BatchLogRecordProcessor({ exporter: exporters.logs });
  const stampSpans: SpanProcessor = {
    onStart: (span) => span.setAttribute(environmentAttribute, environmentName),
    onEnd: () => undefined,
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const stampLogs: LogRecordProcessor = {
    onEmit: (record) => record.setAttribute(environmentAttribute, environmentName),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const exportedSpans =
    exporters.healthySpansPercent === undefined
      ? spanProcessor
      : healthySpansSampled(exporters.healthySpansPercent, spanProcessor);
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [stampSpans, exportedSpans] });
  const loggerProvider = new LoggerProvider({
    processors: [stampLogs, exporters.levels ? keptAtLevel(exporters.levels, logProcessor) : logProcessor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  logs.setGlobalLoggerProvider(loggerProvider);
  return {
    flush: async () => {
      await Promise.all([tracerProvider.forceFlush(), loggerProvider.forceFlush()]);
    },
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), loggerProvider.shutdown()]);
      trace.disable();
      logs.disable();
      propagation.disable();
      context.disable();
    },
  };
}
