import { describe, expect, it } from 'vitest';

import { throughputLine } from '../../bench/sinkWorkload';

// The one line per sink and workload that docs/benchmarks.md quotes and the merger re-runs: its form
// is fixed, whatever the figures (nothing here checks a time).
const form =
  /^sink throughput \((http|table), (bursts|spread)\): serial [\d,]+ ev\/s, by key [\d,]+ ev\/s \(\d+\.\d× serial\), ceiling [\d,]+ ev\/s \(\d+ % of ceiling\)$/;

describe('the sink throughput line', () => {
  it('names the sink and the workload and gives the three rates, the speed-up and the share of the ceiling', () => {
    const line = throughputLine('http', 'bursts', 181.4, 2_345.6, 2_500.2);
    expect(line).toBe(
      'sink throughput (http, bursts): serial 181 ev/s, by key 2,346 ev/s (12.9× serial), ceiling 2,500 ev/s (94 % of ceiling)',
    );
    expect(line).toMatch(form);
  });

  it('keeps its form for the Table sink and the spread workload', () => {
    expect(throughputLine('table', 'spread', 50, 359, 341)).toMatch(form);
  });
});
