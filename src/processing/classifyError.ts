import { TaskCancelledError } from 'cockatiel';

import { PoisonEventError, TransientSinkError } from './errors';

export type FailureKind = 'transient' | 'permanent';

const transientStatus = (status: number) => status === 408 || status === 429 || status >= 500;
const transientNetworkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'REQUEST_SEND_ERROR',
]);
const transientNames = new Set(['AbortError', 'TimeoutError']);

/**
 * The one place that decides whether a failure is worth retrying: timeouts, HTTP 408/429/5xx and
 * network errors are transient; everything else (invalid events, other 4xx, bugs) is permanent.
 * Causes are followed, so a wrapped network error is still transient.
 */
export function classifyError(error: unknown): FailureKind {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof PoisonEventError) return 'permanent';
    if (current instanceof TransientSinkError || current instanceof TaskCancelledError) return 'transient';
    if (typeof current !== 'object') break;
    const { statusCode, status, code, name, cause } = current as Record<string, unknown>;
    const httpStatus =
      typeof statusCode === 'number' ? statusCode : typeof status === 'number' ? status : undefined;
    if (httpStatus !== undefined) return transientStatus(httpStatus) ? 'transient' : 'permanent';
    if (typeof code === 'string' && transientNetworkCodes.has(code)) return 'transient';
    if (typeof name === 'string' && transientNames.has(name)) return 'transient';
    current = cause;
  }
  return 'permanent';
}

export const isTransient = (error: unknown): boolean => classifyError(error) === 'transient';
