import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

import { telemetryScope } from './appEvent';
import { boundText } from './boundText';
import { ensureError } from './ensureError';

/**
 * Runs one outbound call inside a client span (a dependency in Application Insights: HTTP when the
 * attributes name a method and URL, Redis when `db.system` says so). A throw marks the span failed
 * with the error's bounded message and is rethrown unchanged. Without exporters set up the span is a
 * no-op and costs nothing.
 */
export async function withDependencySpan<T>(
  name: string,
  attributes: Attributes,
  call: (span: Span) => Promise<T>,
): Promise<T> {
  return trace
    .getTracer(telemetryScope)
    .startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await call(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: boundText(ensureError(error).message, 200) });
        throw error;
      } finally {
        span.end();
      }
    });
}

/**
 * Attributes of an HTTP dependency: the method, the URL without its query string and the host.
 * `originOnly` leaves the path out too, for URLs whose path is a secret (a Teams or Slack webhook).
 */
export function httpAttributes(method: string, url: string, originOnly = false): Attributes {
  const parsed = new URL(url);
  return {
    'http.request.method': method,
    'url.full': originOnly ? `${parsed.origin}/` : `${parsed.origin}${parsed.pathname}`,
    'server.address': parsed.hostname,
  };
}

/** The W3C trace context (`traceparent`, `tracestate`) of the active span, as headers of a request. */
export function traceContextHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/** The response status on an HTTP dependency span; 4xx and 5xx mark the call failed. */
export function recordHttpStatus(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${status}` });
}
