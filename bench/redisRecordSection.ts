import type { Result } from 'ioredis';

import { bucketsInWindow } from '../src/breaker/breakerPolicy';
import { breakerKeys, makeRedisBreakerStore } from '../src/breaker/redisBreakerStore';
import { createBreakerRedis } from '../src/breaker/redisClient';
import { recordScript } from '../src/breaker/redisScripts';
import { sampleOf } from '../src/kernel/failureSample';
import { benchName, benchPolicy, oneFailure } from './benchPolicy';
import type { BenchSection } from './benchSection';
import { fmt, measureConcurrent, type Measurement, median, pct } from './measure';

const ROUNDS = 5;
const OPS = 5_000;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    benchTrivial(key: string): Result<unknown, Context>;
    benchTrivialArgs(...keysAndArgs: (string | number)[]): Result<unknown, Context>;
    benchRecordScript(...keysAndArgs: (string | number)[]): Result<unknown, Context>;
  }
}

const summary = (label: string, runs: readonly Measurement[]) =>
  `${label.padEnd(20)} ${fmt(median(runs.map((m) => m.opsPerSecond))).padStart(8)} ops/s   ` +
  `p50 ${median(runs.map((m) => m.p50Ms)).toFixed(3)} ms   p99 ${median(runs.map((m) => m.p99Ms)).toFixed(3)} ms`;

/**
 * Redis `record` (one Lua script) against a trivial EVALSHA on the same client and concurrency, and two
 * steps between them that say where the gap is: the trivial script sent record's keys and arguments (their
 * encoding and bytes), and record's own script sent by EVALSHA straight from the client (its work in
 * Redis, without the store's span, ready check and reply parsing). The four alternate in rounds and the
 * medians are printed, so load from other processes hits each alike.
 */
export const redisRecordSection: BenchSection = {
  title: `Redis record vs baseline (EVALSHA of "return 1"), one client, ${ROUNDS} alternating rounds of ${fmt(OPS)} calls`,
  async run({ redisUrl, print }) {
    const redis = createBreakerRedis(redisUrl, { commandTimeoutMs: 5_000 });
    redis.defineCommand('benchTrivial', { numberOfKeys: 1, lua: 'return 1' });
    redis.defineCommand('benchTrivialArgs', { numberOfKeys: 3, lua: 'return 1' });
    redis.defineCommand('benchRecordScript', { numberOfKeys: 3, lua: recordScript });
    const store = makeRedisBreakerStore({ redis, name: benchName('Rec'), policy: benchPolicy });
    const raw = breakerKeys(benchName('Raw'));
    // record's keys and arguments, as the store sends them (redisBreakerStore.ts).
    const recordArgs = (keys: typeof raw, now: number) =>
      [
        ...[keys.window, keys.state, keys.trips, now, benchPolicy.bucketMs, bucketsInWindow(benchPolicy)],
        ...[benchPolicy.threshold, benchPolicy.probationThreshold, oneFailure.length],
        ...[`bench-${now}`, benchPolicy.historyLimit, JSON.stringify(sampleOf(oneFailure))],
      ] as const;
    const ops = [
      ['baseline EVALSHA', () => redis.benchTrivial('bench:{x}')],
      ["+ record's args", () => redis.benchTrivialArgs(...recordArgs(breakerKeys('BenchArgs'), Date.now()))],
      ["+ record's script", () => redis.benchRecordScript(...recordArgs(raw, Date.now()))],
      ['record (the store)', () => store.record(oneFailure, Date.now())],
    ] as const;
    await store.getState(); // connects (the breaker client has no offline queue)
    // Warm-up: load both scripts, let the JIT settle.
    for (const [, op] of ops) await measureConcurrent(8, OPS, op);
    for (const concurrency of [1, 8, 32]) {
      const runs = ops.map(() => [] as Measurement[]);
      for (let round = 0; round < ROUNDS; round++)
        for (const [i, [, op]] of ops.entries()) runs[i]!.push(await measureConcurrent(concurrency, OPS, op));
      const ratioTo = (i: number, base: number) =>
        median(runs[i]!.map((m, r) => m.opsPerSecond / (runs[base]![r]?.opsPerSecond ?? Number.NaN)));
      print(`${concurrency} caller(s):`);
      for (const [i, [label]] of ops.entries())
        print(
          `  ${summary(label, runs[i]!)}${i === 0 ? '' : `   ${pct(ratioTo(i, i - 1))} of the row above`}`,
        );
      const ratios = runs[3]!.map((m, r) => m.opsPerSecond / (runs[0]![r]?.opsPerSecond ?? Number.NaN));
      print(
        `  record / baseline throughput: ${pct(median(ratios))} (median of ${ROUNDS} rounds; ` +
          `range ${pct(Math.min(...ratios))} – ${pct(Math.max(...ratios))})`,
      );
    }
    await store.close();
  },
};
