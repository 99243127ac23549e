import { createHash } from 'node:crypto';

import type { ReceivedEvent } from '../hub/receivedEvent';
import type { SensorReading } from '../hub/sensorReading';
import {
  httpAttributes,
  recordHttpStatus,
  traceContextHeaders,
  withDependencySpan,
} from '../kernel/dependencySpan';
import type { ActivitySink, SinkWriteResult } from './activitySink';
import { readBoundedBody, sanitiseForMessage } from './boundedBody';
import { HttpStatusError, TransientSinkError } from './errors';
import { readingVersion } from './homeActivityTableSink';
import { parseRetryAfter } from './retryAfter';

export interface HttpActivitySinkOptions {
  /** Endpoint each reading is POSTed to. */
  readonly url: string;
  /** Endpoint the probe GETs; any 2xx is healthy. */
  readonly healthUrl: string;
  /** Bound of one request, response body included. */
  readonly timeoutMs: number;
  /** Namespace of the idempotency key: sequence numbers are only unique per hub and partition. */
  readonly keyPrefix: string;
  readonly fetch?: typeof fetch;
  /** For `Retry-After` given as an HTTP-date. */
  readonly now?: () => number;
}

/** Bytes of a response body read for the result or an error message; the rest is discarded. */
const MAX_BODY_BYTES = 4096;

/** The JSON body of one reading: the reading, its version (newest wins) and where it came from. */
export interface HttpReadingBody extends SensorReading {
  readonly version: string;
  readonly eventPartition: string;
  readonly eventSequenceNumber: number;
}

/**
 * Sink for an HTTP API downstream. Each reading is POSTed with an `Idempotency-Key` derived from the
 * event's partition and sequence number, so a re-run is recognised; the body carries `version` so the
 * API keeps the newest reading per sensor. The API answers 2xx (`{"result":"stale"}` or the header
 * `Idempotent-Replayed: true` when nothing changed); any other status becomes an HttpStatusError with
 * `statusCode` (and `retryAfterMs`), and network failures and timeouts a TransientSinkError, so
 * `classifyError` decides. Every request is bounded by `timeoutMs` and by the caller's signal.
 */
export function makeHttpActivitySink(options: HttpActivitySinkOptions): ActivitySink {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  // Each request is a dependency span, and carries its W3C trace context to the API.
  const send = (what: string, url: string, init: RequestInit & { method: string }, signal: AbortSignal) =>
    withDependencySpan(`sink ${init.method}`, httpAttributes(init.method, url), async (span) => {
      const headers = { ...(init.headers as Record<string, string> | undefined), ...traceContextHeaders() };
      const response = await fetchOnce(what, url, { ...init, headers }, signal);
      recordHttpStatus(span, response.status);
      return response;
    });

  const fetchOnce = async (what: string, url: string, init: RequestInit, signal: AbortSignal) => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    try {
      return await doFetch(url, { ...init, redirect: 'error', signal: AbortSignal.any([signal, timeout]) });
    } catch (error) {
      const reason = timeout.aborted
        ? `no answer within ${options.timeoutMs} ms`
        : signal.aborted
          ? 'abandoned by the caller (deadline)'
          : `unreachable (${networkCause(error)})`;
      throw new TransientSinkError(`${what}: downstream ${reason}`, { cause: error });
    }
  };

  const failure = async (what: string, response: Response) => {
    const body = sanitiseForMessage(await readBoundedBody(response, MAX_BODY_BYTES));
    const retryAfterMs =
      response.status === 429 || response.status === 503
        ? parseRetryAfter(response.headers.get('retry-after'), now())
        : undefined;
    return new HttpStatusError(
      `${what}: downstream answered HTTP ${response.status}${body ? `: ${body}` : ''}`,
      response.status,
      retryAfterMs,
    );
  };

  return {
    async write(reading, event, signal): Promise<SinkWriteResult> {
      const key = idempotencyKey(options.keyPrefix, event);
      const what = `POST reading ${key}`;
      const response = await send(
        what,
        options.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(toBody(reading, event)),
        },
        signal,
      );
      if (!response.ok) throw await failure(what, response);
      if (response.headers.get('idempotent-replayed')?.toLowerCase() === 'true') {
        await response.body?.cancel();
        return 'stale';
      }
      const body = await readBoundedBody(response, MAX_BODY_BYTES).catch((error: unknown) => {
        throw new TransientSinkError(`${what}: the answer was cut off`, { cause: error });
      });
      return resultOf(body);
    },

    async probe(signal) {
      const response = await send('GET health', options.healthUrl, { method: 'GET' }, signal);
      if (!response.ok) throw await failure('GET health', response);
      await response.body?.cancel();
    },

    // The API keeps the newest reading per sensor (the body's version decides within one sensor).
    orderingKey: (reading) => `${reading.homeId}/${reading.sensorId}`,
    readingVersion,
  };
}

/**
 * `<prefix>:<partition>:<sequence>`: the same event always gets the same key, on any instance. Without
 * trigger metadata the body's SHA-256 stands in: the same bytes are the same reading.
 */
export function idempotencyKey(prefix: string, event: ReceivedEvent): string {
  if (event.partitionId !== undefined && event.sequenceNumber !== undefined)
    return `${prefix}:${event.partitionId}:${event.sequenceNumber}`;
  return `${prefix}:sha256:${createHash('sha256').update(event.body).digest('hex')}`;
}

function toBody(reading: SensorReading, event: ReceivedEvent): HttpReadingBody {
  return {
    ...reading,
    version: readingVersion(reading, event),
    eventPartition: event.partitionId ?? '',
    eventSequenceNumber: event.sequenceNumber ?? -1,
  };
}

/** A 2xx body `{"result":"stale"}` means nothing changed; anything else (or no body) means applied. */
function resultOf(body: string): SinkWriteResult {
  try {
    const parsed: unknown = JSON.parse(body);
    return (parsed as { result?: unknown } | null)?.result === 'stale' ? 'stale' : 'applied';
  } catch {
    return 'applied';
  }
}

/** The network code under fetch's "fetch failed" (ECONNREFUSED, UND_ERR_SOCKET, ...), for the message. */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' ? cause.message : String(error);
  return sanitiseForMessage(code ?? message, 80);
}
