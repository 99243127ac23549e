import { describe, expect, it } from 'vitest';

import { buildSummary, exitCodeOf, formatSummaryTable, formatTrips } from '../../demo/summary';
import type { TripRecord } from '../../src/breaker/breakerStore';

const sent = [0, 1, 2, 3, 4].map((sequenceNumber) => ({ partitionId: '0', sequenceNumber }));

describe('buildSummary', () => {
  it('puts every sent event in exactly one bucket: processed, dead-lettered, held or lost', () => {
    const summary = buildSummary({
      sent,
      processed: new Set(['0/0', '0/1']),
      deadLettered: new Map([
        ['0/1', 'transient'], // processed wins (e.g. redriven)
        ['0/2', 'poison'],
      ]),
      checkpoint: () => 4, // 0/4 is still in the hub, behind the checkpoint
      settled: false,
      seconds: 12,
    });
    expect(summary).toMatchObject({
      sent: 5,
      processed: 2,
      deadLettered: 1,
      deadLetteredByReason: { poison: 1 },
      held: 1,
      lost: 1,
      lostSample: ['0/3'],
    });
    expect(exitCodeOf(summary)).toBe(1);
  });

  it('counts a reading superseded in its own batch as processed, not lost (ORDERING=key does not write it)', () => {
    const summary = buildSummary({
      sent,
      processed: new Set(['0/0', '0/1', '0/2', '0/4']),
      superseded: (e) => e.sequenceNumber === 3,
      deadLettered: new Map<string, string>(),
      checkpoint: () => 5,
      settled: true,
      seconds: 30,
    });
    expect(summary).toMatchObject({ processed: 5, superseded: 1, lost: 0 });
    expect(exitCodeOf(summary)).toBe(0);
    expect(formatSummaryTable(summary).join('\n')).toMatch(/of which 1 superseded in their batch/);
  });

  it('exit code 0 only when nothing is lost and the run settled', () => {
    const base = {
      sent,
      processed: new Set(sent.map((e) => `0/${e.sequenceNumber}`)),
      deadLettered: new Map<string, string>(),
      checkpoint: () => 5,
      seconds: 90,
    };
    expect(exitCodeOf(buildSummary({ ...base, settled: true }))).toBe(0);
    expect(exitCodeOf(buildSummary({ ...base, settled: false }))).toBe(1);
  });

  it('formats a table with lost = 0 and the reasons of dead letters', () => {
    const lines = formatSummaryTable(
      buildSummary({
        sent,
        processed: new Set(['0/0', '0/1', '0/2', '0/3']),
        deadLettered: new Map([['0/4', 'poison']]),
        checkpoint: () => 5,
        settled: true,
        seconds: 140,
      }),
    );
    expect(lines).toContain('| lost                   | 0 |');
    expect(lines).toContain('| processed              | 4 |');
    expect(lines).toContain('| saved before retention | 0 |');
    // Every reason is listed, zeros too: an outage shows as "failed 0".
    const reasons = lines.find((l) => l.startsWith('dead-lettered by reason:')) ?? '';
    expect(reasons).toMatch(/^dead-lettered by reason: poison 1 \(not a valid reading\), failed 0 /);
    expect(reasons).toContain('isolated 0 (failed alone after the set number of re-runs)');
    expect(lines.at(-1)).toMatch(/^settled after 140 simulated seconds/);
  });
});

describe('buildSummary with the hub retention', () => {
  it('counts an event that expired in the hub unprocessed as lost, and a saved one as saved, not held', () => {
    const summary = buildSummary({
      sent,
      processed: new Set(['0/0', '0/3']),
      deadLettered: new Map<string, string>(),
      checkpoint: () => 0, // nothing checkpointed: 0/4 is still in the hub
      expired: new Set(['0/0', '0/1', '0/2', '0/3']),
      saved: new Set(['0/2', '0/3']), // 0/3 was saved, then drained (processed)
      settled: true,
      seconds: 700,
    });
    expect(summary).toMatchObject({
      processed: 2,
      saved: 2,
      savedWaiting: 1,
      held: 1,
      lost: 1,
      expiredUnprocessed: 1,
      lostSample: ['0/1'],
    });
    const lines = formatSummaryTable(summary, 'dl-demo');
    expect(lines).toContain('| saved before retention | 2 |');
    expect(lines.join('\n')).toContain('2 event(s) written to dl-demo/saved/ before the hub');
    expect(lines.join('\n')).toContain('lost: 1 event(s) expired in the hub past its retention');
  });
});

describe('formatTrips', () => {
  it('lists this run’s trips oldest first with times relative to the start', () => {
    const start = Date.UTC(2026, 0, 1);
    const trips: TripRecord[] = [
      { tripId: 'tB-later', cause: 'probation', openedAt: start + 100_000, failuresInWindow: 6, sample: [] },
      {
        tripId: 'tA-first',
        cause: 'threshold',
        openedAt: start + 20_000,
        failuresInWindow: 25,
        sample: [],
        approvedAt: start + 80_000,
        approvedBy: 'On-call operator',
        resumedAt: start + 81_000,
        closedAt: start + 140_000,
      },
      { tripId: 'tOld', cause: 'manual', openedAt: start - 5_000, failuresInWindow: 0, sample: [] },
    ];
    expect(formatTrips(trips, start)).toEqual([
      'trip tA-first (threshold), opened t+20s at 25 failures in window, approved t+80s by On-call operator, resumed t+81s, closed t+140s',
      'trip tB-later (probation), opened t+100s at 6 failures in window',
    ]);
  });
});
