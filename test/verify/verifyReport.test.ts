import { describe, expect, it } from 'vitest';

import { eventNumberOf, phaseRange, plannedEvent, poisonCount } from '../../verify/plan';
import { countRun, formatCheckpoints } from '../../verify/report';

const plan = { run: 'r1', events: 100, poisonEvery: 10, homes: 4 };

describe('the run plan', () => {
  it('splits the readings: half before the fault, a quarter to trip, a quarter while OPEN', () => {
    expect([phaseRange(plan, 'before'), phaseRange(plan, 'outage'), phaseRange(plan, 'open')]).toEqual([
      [0, 50],
      [50, 75],
      [75, 100],
    ]);
    expect(poisonCount(plan)).toBe(10);
  });

  it('finds its own events in any body, poison included, and no one else’s', () => {
    for (const n of [0, 9, 42]) {
      const body = plannedEvent(plan, n, '2026-01-01T00:00:00.000Z').body.toString();
      expect(eventNumberOf('r1', body)).toBe(n);
      expect(eventNumberOf('r2', body)).toBeUndefined();
    }
    expect(plannedEvent(plan, 9, '2026-01-01T00:00:00Z').poison).toBe(true);
    expect(eventNumberOf('r1', '{"homeId":"home-1","sensorId":"e1"}')).toBeUndefined();
    expect(eventNumberOf('r1', 'not json')).toBeUndefined();
  });
});

describe('accounting for every event', () => {
  const found = (processed: number[], deadLettered: [number, string][]) => ({
    processed: new Set(processed),
    deadLettered: new Map(deadLettered),
  });

  it('counts what the hub still holds as held, only the rest as lost', () => {
    const c = countRun(6, found([0, 1, 2], [[3, 'poison']]), 1);
    expect(c).toMatchObject({ sent: 6, processed: 3, deadLettered: 1, held: 1, lost: 1, missing: [4, 5] });
    expect(Object.fromEntries(c.byReason)).toEqual({ poison: 1 });
  });

  it('counts an event found in both the sink and the dead letters once, as processed (redriven)', () => {
    expect(countRun(2, found([0, 1], []), 0)).toMatchObject({ processed: 2, deadLettered: 0, lost: 0 });
  });

  it('shows the checkpoints per partition at start, at the fault and at the end', () => {
    const m = (entries: [string, number | undefined][]) => new Map(entries);
    expect(
      formatCheckpoints(
        m([['1', 4]]),
        m([
          ['0', 2],
          ['1', 9],
        ]),
        m([
          ['0', 7],
          ['1', 12],
        ]),
      ),
    ).toEqual(['  p0 -/2→7   p1 4/9→12']);
  });
});
