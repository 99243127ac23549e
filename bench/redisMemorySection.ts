import { Redis } from 'ioredis';

import { breakerKeys, makeRedisBreakerStore } from '../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../src/breaker/redisClient';
import { benchName, benchPolicy } from './benchPolicy';
import type { BenchSection } from './benchSection';
import { fmt, pct } from './measure';

const CALLS_PER_SECOND = 10;

/**
 * MEMORY USAGE of one breaker's window key after a full window at a given failure rate. The clock is
 * simulated (a window's worth of records in a moment); each second gets CALLS_PER_SECOND record calls
 * carrying rate / CALLS_PER_SECOND failures each, as batches would.
 */
async function memoryAfterWindow(redisUrl: string, admin: Redis, failuresPerSecond: number): Promise<number> {
  const name = benchName('Mem');
  const store = makeRedisBreakerStore({ redis: createBreakerRedis(redisUrl), name, policy: benchPolicy });
  const perCall = Array.from({ length: failuresPerSecond / CALLS_PER_SECOND }, (_, i) => ({
    eventKey: `p0-s${i}`,
    kind: 'transient' as const,
    message: 'bench',
  }));
  const start = Date.UTC(2026, 0, 1);
  const seconds = benchPolicy.windowMs / 1000 + 5;
  for (let s = 0; s < seconds; s++) {
    for (let c = 0; c < CALLS_PER_SECOND; c++) await store.record(perCall, start + s * 1000 + c * 10);
  }
  const bytes = await admin.memory('USAGE', breakerKeys(name).window, 'SAMPLES', 0);
  await store.close();
  return Number(bytes);
}

export const redisMemorySection: BenchSection = {
  title: 'Redis window key memory after a full 30 s window (simulated clock)',
  async run({ redisUrl, print }) {
    const admin = new Redis(redisUrl);
    const slow = await memoryAfterWindow(redisUrl, admin, 10);
    const fast = await memoryAfterWindow(redisUrl, admin, 10_000);
    print(`  10 failures/s:      ${fmt(slow)} bytes`);
    print(`  10,000 failures/s:  ${fmt(fast)} bytes`);
    print(`  difference: ${pct(Math.abs(fast - slow) / slow)} (target: within 10 %)`);
    await admin.quit();
  },
};
