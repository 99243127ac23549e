import { performance } from 'node:perf_hooks';

export interface Measurement {
  readonly ops: number;
  readonly opsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * Runs `op` from `concurrency` callers until `totalOps` calls completed; returns throughput and
 * latency percentiles. Each caller awaits its call before the next, as a function instance would.
 */
export async function measureConcurrent(
  concurrency: number,
  totalOps: number,
  op: (caller: number, i: number) => Promise<unknown>,
): Promise<Measurement> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      for (let i = next++; i < totalOps; i = next++) {
        const t = performance.now();
        await op(caller, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  return {
    ops: latencies.length,
    opsPerSecond: (latencies.length / elapsed) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

export const median = (values: readonly number[]) => percentile(values, 0.5);

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
