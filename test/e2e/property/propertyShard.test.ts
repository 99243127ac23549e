import { describe, expect, it } from 'vitest';

import { parsePropertyShard, shardBlock, shardRuns } from './faultProperty';

/** Every schedule number, in order, that the `count` shards of `runs` run together. */
function covered(runs: number, count: number): number[] {
  const numbers: number[] = [];
  for (let index = 1; index <= count; index++)
    for (let n = 1; n <= runs + 1; n++) if (shardRuns(runs, { index, count }, n)) numbers.push(n);
  return numbers;
}

describe('the soak split across processes (PROPERTY_SHARD)', () => {
  it('runs every schedule of the seed exactly once across the shards, for any split', () => {
    for (const [runs, count] of [
      [200, 2],
      [50, 2],
      [7, 3],
      [1, 2],
      [5, 5],
      [3, 16],
    ] as const) {
      expect(covered(runs, count), `${runs} in ${count}`).toEqual(
        Array.from({ length: runs }, (_, i) => i + 1),
      );
    }
  });

  it('runs all schedules without a shard', () => {
    expect(shardBlock(200, undefined)).toEqual({ from: 0, to: 200 });
    expect([0, 1, 200, 201].map((n) => shardRuns(200, undefined, n))).toEqual([false, true, true, false]);
  });

  it('reads i/n and refuses anything else with the setting named', () => {
    expect(parsePropertyShard('2/2')).toEqual({ index: 2, count: 2 });
    expect(parsePropertyShard(undefined)).toBeUndefined();
    expect(parsePropertyShard('')).toBeUndefined();
    for (const bad of ['0/2', '3/2', '1/17', '1/0', '1', 'a/b', '1/2/3', ' 1/2'])
      expect(() => parsePropertyShard(bad), bad).toThrow(/^PROPERTY_SHARD must be i\/n/);
  });
});
