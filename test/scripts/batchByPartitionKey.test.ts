import { describe, expect, it } from 'vitest';

import {
  batchByPartitionKey,
  EventTooLargeError,
  windowsForRate,
} from '../../scripts/producer/batchByPartitionKey';
import { generateEvents, type OutgoingEvent } from '../../scripts/producer/generateEvents';

const event = (partitionKey: string, bytes: number, tag = ''): OutgoingEvent => ({
  partitionKey,
  body: new TextEncoder().encode(tag.padEnd(bytes, '.')),
});
const limits = { maxBatchBytes: 1_000, perEventOverheadBytes: 0, batchOverheadBytes: 0 };
const tags = (events: readonly OutgoingEvent[]) => events.map((e) => new TextDecoder().decode(e.body)[0]);

describe('batchByPartitionKey', () => {
  it('puts each partition key in batches of its own, in order of first appearance', () => {
    const batches = batchByPartitionKey(
      [event('a', 10, '1'), event('b', 10, '2'), event('a', 10, '3'), event('c', 10, '4')],
      limits,
    );
    expect(batches.map((b) => [b.partitionKey, tags(b.events).join('')])).toEqual([
      ['a', '13'],
      ['b', '2'],
      ['c', '4'],
    ]);
  });

  it('starts a new batch for a key when the next event would pass the byte limit', () => {
    const batches = batchByPartitionKey(
      [event('a', 400, '1'), event('a', 400, '2'), event('a', 400, '3'), event('b', 100, '4')],
      limits,
    );
    expect(batches.map((b) => [b.partitionKey, tags(b.events).join(''), b.estimatedBytes])).toEqual([
      ['a', '12', 800],
      ['a', '3', 400],
      ['b', '4', 100],
    ]);
  });

  it('counts per-event and envelope overhead against the limit', () => {
    const batches = batchByPartitionKey([event('a', 300), event('a', 300), event('a', 300)], {
      maxBatchBytes: 1_000,
      perEventOverheadBytes: 100,
      batchOverheadBytes: 100,
    });
    expect(batches.map((b) => b.events.length)).toEqual([2, 1]);
    expect(batches.every((b) => b.estimatedBytes <= 1_000)).toBe(true);
  });

  it('accepts an event that exactly fills a batch', () => {
    expect(batchByPartitionKey([event('a', 1_000)], limits)).toHaveLength(1);
  });

  it('rejects an event that cannot fit even alone, naming its key', () => {
    expect(() => batchByPartitionKey([event('home-9', 1_001)], limits)).toThrow(EventTooLargeError);
    expect(() => batchByPartitionKey([event('home-9', 1_001)], limits)).toThrow(/home-9.*1000-byte/);
  });

  it('keeps every event exactly once, in order per key, under the limit (generated readings)', () => {
    const events = generateEvents({
      count: 3_000,
      homes: 40,
      poison: 0.1,
      seed: 11,
      startTime: new Date(0),
      spacingMs: 1,
    });
    const maxBatchBytes = 4_096;
    const batches = batchByPartitionKey(events, { maxBatchBytes });
    expect(batches.reduce((n, b) => n + b.events.length, 0)).toBe(events.length);
    for (const batch of batches) {
      expect(batch.estimatedBytes).toBeLessThanOrEqual(maxBatchBytes);
      expect(batch.events.every((e) => e.partitionKey === batch.partitionKey)).toBe(true);
    }
    const perKey = (list: readonly OutgoingEvent[], key: string) =>
      list.filter((e) => e.partitionKey === key);
    for (const key of new Set(events.map((e) => e.partitionKey))) {
      expect(batches.filter((b) => b.partitionKey === key).flatMap((b) => b.events)).toEqual(
        perKey(events, key),
      );
    }
  });

  it('returns no batches for no events', () => {
    expect(batchByPartitionKey([], limits)).toEqual([]);
  });
});

describe('windowsForRate', () => {
  it('cuts one second of events per window at the given rate', () => {
    expect(windowsForRate([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('sends everything in one window when the rate is 0 (unlimited)', () => {
    expect(windowsForRate([1, 2, 3], 0)).toEqual([[1, 2, 3]]);
    expect(windowsForRate([], 0)).toEqual([]);
  });
});
