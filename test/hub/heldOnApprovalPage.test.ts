import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { FUNCTION_KEY } from '../../sim/world/breakwaterWorld';
import { HELD_ENVIRONMENT, HeldBacklogWorld, RETENTION_HOURS } from '../e2e/worlds/heldBacklogWorld';

let w: HeldBacklogWorld;
let link: string;
let sentAt: number;

beforeAll(async () => {
  w = await HeldBacklogWorld.create(inject('storageConnectionString'));
  sentAt = w.world.clock.now();
  w.send(60, 9, 'early');
  // Two rounds with the downstream up: batches of 5 are processed and checkpointed.
  await w.second();
  await w.second();
  w.world.clock.advance(120_000);
  w.send(40, 9, 'late');
  w.world.downstreamDown = true;
  link = await w.untilTrippedAndDisabled();
  // Ten simulated minutes of waiting for a person: the watchdog probes once a minute.
  for (let minute = 0; minute < 10; minute++) {
    w.world.clock.advance(60_000);
    await w.world.runWatchdog();
  }
}, 120_000);
afterAll(() => w.close());

/** Rows of the held table: partition → held count. */
function heldRows(page: string): Record<string, number> {
  const rows = [...page.matchAll(/<tr data-partition="(\d+)" data-held="(\d+)">/g)];
  return Object.fromEntries(rows.map((m): [string, number] => [m[1] ?? '', Number(m[2])]));
}

describe('what is held, read from the hub itself', () => {
  it('shows on the approval page exactly what the simulator holds: events sent minus checkpointed, per partition', async () => {
    const truth = w.truth();
    const expected = Object.fromEntries(truth.filter((t) => t.held > 0).map((t) => [t.partitionId, t.held]));
    // The scenario holds events in more than one partition, and some were processed before the trip.
    expect(Object.keys(expected).length).toBeGreaterThan(1);
    expect(w.world.writes.length).toBeGreaterThan(0);

    const page = await (await fetch(link)).text();
    expect(heldRows(page)).toEqual(expected);
    const total = truth.reduce((sum, t) => sum + t.held, 0);
    expect(page).toContain(`data-total="${total}"`);
    // The oldest held event was sent with the first wave; it is 12 min old by now and has 24 h retention.
    const oldest = Math.min(
      ...truth.flatMap((t) => (t.oldestEnqueuedAt ? [Date.parse(t.oldestEnqueuedAt)] : [])),
    );
    expect(oldest).toBe(sentAt);
    expect(page).toContain('oldest 12 min old (enqueued ');
    expect(page).toContain(`retention drops it in 23 h 47 min`);
    expect(page).toContain(`<strong id="environment">${HELD_ENVIRONMENT}</strong>`);
    expect(page).toMatch(/still failing: downstream unavailable[^,]*, since \d\d:\d\d UTC/);
  });

  it('gives the same numbers in the status API, per partition with the oldest enqueued time', async () => {
    const res = await fetch(`${w.world.http.baseUrl}/api/breaker/status?code=${FUNCTION_KEY}`);
    const status = (await res.json()) as {
      environment: string;
      held: {
        known: boolean;
        total: number;
        retentionEndsAt: string;
        partitions: { partitionId: string; held: number; oldestEnqueuedAt: string | null }[];
      };
      downstream: { healthy: boolean | null };
    };
    const truth = w.truth();
    expect(status.environment).toBe(HELD_ENVIRONMENT);
    expect(status.held.known).toBe(true);
    expect(status.held.partitions).toEqual(
      truth.map((t) => ({
        partitionId: t.partitionId,
        held: t.held,
        oldestEnqueuedAt: t.held > 0 ? (t.oldestEnqueuedAt ?? null) : null,
      })),
    );
    expect(status.held.retentionEndsAt).toBe(new Date(sentAt + RETENTION_HOURS * 3_600_000).toISOString());
    expect(status.downstream.healthy).toBe(false);
  });

  it('gives every reader the oldest age when the page, the status API and an email read at once', async () => {
    // One hub client subscribes to a partition once at a time; readers that overlap (two operators, the
    // page and a reminder) take turns on it instead of failing with "Partition already has a subscriber."
    const reads = await Promise.all(
      [0, 1, 2].map(async () => {
        const res = await fetch(`${w.world.http.baseUrl}/api/breaker/status?code=${FUNCTION_KEY}`);
        return (await res.json()) as {
          held: { oldestUnknown: string | null; partitions: { oldestEnqueuedAt: string | null }[] };
        };
      }),
    );
    const expected = w.truth().map((t) => (t.held > 0 ? (t.oldestEnqueuedAt ?? null) : null));
    for (const status of reads) {
      expect(status.held.oldestUnknown).toBeNull();
      expect(status.held.partitions.map((p) => p.oldestEnqueuedAt)).toEqual(expected);
    }
  });

  it('answers many page loads at once (a mail scanner opening the link) with one read of the hub, not one each', async () => {
    const statusOnce = async () => {
      const res = await fetch(`${w.world.http.baseUrl}/api/breaker/status?code=${FUNCTION_KEY}`);
      return (await res.json()) as { held: { partitions: { oldestEnqueuedAt: string | null }[] } };
    };
    await statusOnce();
    const perRead = w.peer.receiveLinksOpened;
    await statusOnce();
    const linksOfOneRead = w.peer.receiveLinksOpened - perRead;
    expect(linksOfOneRead).toBeGreaterThan(0);
    const before = w.peer.receiveLinksOpened;
    const reads = await Promise.all(Array.from({ length: 24 }, () => statusOnce()));
    const expected = w.truth().map((t) => (t.held > 0 ? (t.oldestEnqueuedAt ?? null) : null));
    for (const status of reads)
      expect(status.held.partitions.map((p) => p.oldestEnqueuedAt)).toEqual(expected);
    // Readers that arrive while a read is in flight share it: at most that read and one after it.
    expect(w.peer.receiveLinksOpened - before).toBeLessThanOrEqual(2 * linksOfOneRead);
  });

  it('degrades to "unknown" with the reason when the hub is gone, never an error page', async () => {
    await w.peer.close();
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const text = await page.text();
    // A reason a person can act on: what was read, where, and what failed; never a bare error class.
    expect(text).toMatch(
      /Events held: <strong>unknown<\/strong> — could not read Event Hubs at 127\.0\.0\.1 \(hub &quot;readings-\w+&quot;\): [^<]*ECONNREFUSED/,
    );
    expect(text).not.toMatch(/— (Aggregate)?Error\b/);
    expect(text).toContain('Approve anyway');
  });
});
