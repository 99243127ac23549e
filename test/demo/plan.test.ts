import { describe, expect, it } from 'vitest';

import { defaultDemoOptions } from '../../demo/args';
import { demoPlan, sensorEvent } from '../../demo/plan';
import { sensorReadingSchema } from '../../src/hub/sensorReading';

describe('demo workload', () => {
  it('publishes valid home-security readings keyed by home, with an occasional garbled payload', () => {
    const now = Date.UTC(2026, 0, 1);
    const events = Array.from({ length: 1200 }, (_, i) => sensorEvent(i, now));
    const parsed = events.map((e) => {
      try {
        return sensorReadingSchema.safeParse(JSON.parse(e.body.toString())).success;
      } catch {
        return false;
      }
    });
    expect(parsed.filter((ok) => !ok)).toHaveLength(3);
    const kinds = new Set(
      events.flatMap((e, i) => (parsed[i] ? [(JSON.parse(e.body.toString()) as { kind: string }).kind] : [])),
    );
    expect([...kinds].sort()).toEqual(['co', 'contact', 'glassBreak', 'motion', 'smoke']);
    for (const e of events.slice(0, 50)) expect(e.body.toString()).toContain(`"homeId":"${e.partitionKey}"`);
  });

  it('plans 16 partitions, one outage, no approval unless asked', () => {
    const plan = demoPlan(defaultDemoOptions);
    expect(plan.partitions).toBe(16);
    expect(plan.outages).toEqual([{ from: 20, to: 70 }]);
    expect(plan.approveAfter).toBe(Number.POSITIVE_INFINITY);
    expect(demoPlan({ ...defaultDemoOptions, autoApproveSeconds: 60 }).approveAfter).toBe(60);
    expect(demoPlan({ ...defaultDemoOptions, outageSeconds: 0 }).outages).toEqual([]);
  });
});
