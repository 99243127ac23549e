import type { Result } from 'ioredis';

import { makeRedisBreakerStore } from '../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../src/breaker/redisClient';
import { benchName, benchPolicy, oneFailure } from './benchPolicy';
import type { BenchSection } from './benchSection';
import { fmt, measureConcurrent, type Measurement, median, pct } from './measure';

const ROUNDS = 5;
const OPS = 5_000;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    benchTrivial(key: string): Result<unknown, Context>;
  }
}

const summary = (label: string, runs: readonly Measurement[]) =>
  `${label.padEnd(18)} ${fmt(median(runs.map((m) => m.opsPerSecond))).padStart(8)} ops/s   ` +
  `p50 ${median(runs.map((m) => m.p50Ms)).toFixed(3)} ms   p99 ${median(runs.map((m) => m.p99Ms)).toFixed(3)} ms`;

/**
 * Redis `record` (one Lua script) against a trivial EVALSHA on the same client and concurrency. The two
 * alternate in rounds and the medians are printed, so load from other processes hits both alike.
 */
export const redisRecordSection: BenchSection = {
  title: `Redis record vs baseline (EVALSHA of "return 1"), one client, ${ROUNDS} alternating rounds of ${fmt(OPS)} calls`,
  async run({ redisUrl, print }) {
    const redis = createBreakerRedis(redisUrl, { commandTimeoutMs: 5_000 });
    redis.defineCommand('benchTrivial', { numberOfKeys: 1, lua: 'return 1' });
    const store = makeRedisBreakerStore({ redis, name: benchName('Rec'), policy: benchPolicy });
    const baselineOp = () => redis.benchTrivial('bench:{x}');
    const recordOp = () => store.record(oneFailure, Date.now());
    await store.getState(); // connects (the breaker client has no offline queue)
    // Warm-up: load both scripts, let the JIT settle.
    await measureConcurrent(8, OPS, baselineOp);
    await measureConcurrent(8, OPS, recordOp);
    for (const concurrency of [1, 8, 32]) {
      const baseline: Measurement[] = [];
      const record: Measurement[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        baseline.push(await measureConcurrent(concurrency, OPS, baselineOp));
        record.push(await measureConcurrent(concurrency, OPS, recordOp));
      }
      const ratios = record.map((m, i) => m.opsPerSecond / (baseline[i]?.opsPerSecond ?? Number.NaN));
      print(`${concurrency} caller(s):`);
      print(`  ${summary('baseline EVALSHA', baseline)}`);
      print(`  ${summary('record', record)}`);
      print(
        `  record / baseline throughput: ${pct(median(ratios))} (median of ${ROUNDS} rounds; ` +
          `range ${pct(Math.min(...ratios))} – ${pct(Math.max(...ratios))})`,
      );
    }
    await store.close();
  },
};
