import { readFileSync } from 'node:fs';
import path from 'node:path';

import { registration } from './fakeFunctionsCore';

export interface RetryPolicy {
  readonly maxRetryCount: number;
  readonly minimumMs: number;
  readonly maximumMs: number;
}

/**
 * When a failed batch runs again under the policy (exponential from the minimum, capped at the
 * maximum; -1 retries forever), or undefined when no retries are left.
 */
export function nextRetryDueAt(
  policy: RetryPolicy,
  retryCount: number,
  failedAt: number,
): number | undefined {
  if (policy.maxRetryCount !== -1 && retryCount >= policy.maxRetryCount) return undefined;
  return failedAt + Math.min(policy.minimumMs * 2 ** retryCount, policy.maximumMs);
}

/** The retry policy registered with the function (none: no retries). */
export function readRetryPolicy(functionName: string): RetryPolicy {
  const options = registration(functionName).metadata.retryOptions as
    | { maxRetryCount: number; minimumInterval?: unknown; maximumInterval?: unknown; delayInterval?: unknown }
    | undefined;
  if (!options) return { maxRetryCount: 0, minimumMs: 0, maximumMs: 0 };
  const ms = (d: unknown) => {
    if (typeof d === 'number') return d;
    const { seconds = 0, milliseconds = 0, minutes = 0 } = (d ?? {}) as Record<string, number>;
    return minutes * 60_000 + seconds * 1000 + milliseconds;
  };
  const min = ms(options.minimumInterval ?? options.delayInterval);
  const max = ms(options.maximumInterval ?? options.delayInterval);
  return { maxRetryCount: options.maxRetryCount, minimumMs: min, maximumMs: max };
}

interface HostJson {
  readonly functionTimeout?: string;
  readonly extensions?: { readonly eventHubs?: { readonly maxEventBatchSize?: number } };
}

function hostJson(): HostJson {
  return JSON.parse(readFileSync(path.join(__dirname, '../../host.json'), 'utf8')) as HostJson;
}

export function readMaxBatchSize(): number {
  return hostJson().extensions?.eventHubs?.maxEventBatchSize ?? 100;
}

/** host.json `functionTimeout` (`hh:mm:ss`) in ms; the Flex Consumption default is 30 min. */
export function readFunctionTimeoutMs(): number {
  const m = /^(\d+):(\d{2}):(\d{2})$/.exec(hostJson().functionTimeout ?? '');
  if (!m) return 30 * 60_000;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
}
