import { inspect } from 'node:util';
import type { RetryOptions } from '@azure/event-hubs';

import type { ProducerTarget } from './producerArgs';

/**
 * The producer's retries, bounded so that a hub that is not there fails within seconds: 3 attempts of
 * at most 2.5 s, 0.5 s apart (about 8.5 s in the worst case of a host that never answers; a closed port
 * fails in well under a second). The client's defaults (3 retries, 30 s apart, 60 s per attempt) made an
 * unreachable hub look like a hang of 90 s.
 */
export const PRODUCER_RETRY: RetryOptions = {
  maxRetries: 2,
  retryDelayInMs: 500,
  maxRetryDelayInMs: 500,
  timeoutInMs: 2_500,
};

const MAX_CAUSE_CHARS = 400;

/** The host and port the client connects to, as in the connection string (5672 for the emulator, else 5671). */
export function endpointOf(target: ProducerTarget): string {
  if (target.kind === 'identity') return `${target.fullyQualifiedNamespace}:5671`;
  const endpoint = /Endpoint=sb:\/\/([^/;]+)/i.exec(target.connectionString)?.[1] ?? 'unknown host';
  if (endpoint.includes(':')) return endpoint;
  return `${endpoint}:${/UseDevelopmentEmulator=true/i.test(target.connectionString) ? 5672 : 5671}`;
}

function hubOf(target: ProducerTarget): string | undefined {
  return (
    target.hubName ??
    /EntityPath=([^;]+)/i.exec(target.kind === 'connectionString' ? target.connectionString : '')?.[1]
  );
}

/**
 * One line naming the address and the cause. The client reports a refused connection as an
 * AggregateError with an empty message: its inner errors (and `cause` chain) are what say why.
 */
export function describeProducerError(error: unknown, target: ProducerTarget): string {
  const hub = hubOf(target);
  const where = `Event Hubs at ${endpointOf(target)}${hub === undefined ? '' : ` (hub "${hub}")`}`;
  const causes = [...new Set(causesOf(error, 0))].filter((c) => c !== '');
  const cause = causes.length === 0 ? 'no reason given by the client' : causes.join('; ');
  const clipped = cause.length > MAX_CAUSE_CHARS ? `${cause.slice(0, MAX_CAUSE_CHARS)}…` : cause;
  return `could not send to ${where}: ${clipped.replace(/SharedAccessKey=[^;\s]+/gi, 'SharedAccessKey=***')}`;
}

function causesOf(error: unknown, depth: number): string[] {
  if (depth > 4 || error === undefined || error === null) return [];
  if (!(error instanceof Error)) return [inspect(error, { breakLength: Infinity, depth: 2 })];
  const code = (error as { code?: unknown }).code;
  const own = error.message.replace(/\s+/g, ' ').trim();
  const named = typeof code === 'string' && own !== '' && !own.includes(code) ? `${code}: ${own}` : own;
  const inner = error instanceof AggregateError ? (error.errors as unknown[]) : [];
  return [named, ...inner.flatMap((e) => causesOf(e, depth + 1)), ...causesOf(error.cause, depth + 1)];
}
