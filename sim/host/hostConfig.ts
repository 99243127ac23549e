import { readFileSync } from 'node:fs';
import path from 'node:path';

import { registration } from './fakeFunctionsCore';

export interface RetryPolicy {
  readonly maxRetryCount: number;
  readonly minimumMs: number;
  readonly maximumMs: number;
}

/**
 * When a failed batch runs again under the policy, or undefined when no retries are left (-1 retries
 * forever). The delay of the n-th retry is the host's RandomizedExponentialBackoffStrategy:
 * `min + r · 2^(n−1) · min` with r uniform in [0.8, 1.2), capped at the maximum; a fixed delay has
 * minimum = maximum. `random` is uniform in [0, 1) (seeded by the caller).
 */
export function nextRetryDueAt(
  policy: RetryPolicy,
  retryCount: number,
  failedAt: number,
  random: () => number,
): number | undefined {
  if (policy.maxRetryCount !== -1 && retryCount >= policy.maxRetryCount) return undefined;
  const r = 0.8 + 0.4 * random();
  const delay = policy.minimumMs + r * 2 ** retryCount * policy.minimumMs;
  return failedAt + Math.round(Math.min(delay, policy.maximumMs));
}

/** A small seeded generator (mulberry32) for the host's random choices: a run repeats with its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
  readonly extensions?: {
    readonly eventHubs?: { readonly maxEventBatchSize?: number };
    readonly durableTask?: { readonly defaultVersion?: string };
  };
}

function hostJson(): HostJson {
  return JSON.parse(readFileSync(path.join(__dirname, '../../host.json'), 'utf8')) as HostJson;
}

export function readMaxBatchSize(): number {
  return hostJson().extensions?.eventHubs?.maxEventBatchSize ?? 100;
}

/**
 * host.json `extensions.durableTask.defaultVersion`: the version the Durable extension stamps on an
 * orchestration started without one (every start of this app); null when unset, as the extension then
 * hands the instance's version to the worker.
 */
export function readDefaultOrchestrationVersion(): string | null {
  return hostJson().extensions?.durableTask?.defaultVersion ?? null;
}

/** host.json `functionTimeout` (`hh:mm:ss`) in ms; the Flex Consumption default is 30 min. */
export function readFunctionTimeoutMs(): number {
  const m = /^(\d+):(\d{2}):(\d{2})$/.exec(hostJson().functionTimeout ?? '');
  if (!m) return 30 * 60_000;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
}
