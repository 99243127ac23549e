import { RestError } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';

import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';
import type { ActivitySink } from '../../src/sinks/activitySink';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';
import {
  context,
  drain,
  processor,
  recordingGate,
  recordingSink,
  seeded,
  setUpDeadLetterStorage,
} from './orderingFixture';

// A batch is written concurrently across keys, strictly in sequence order within a key, and
// a failure stops only its own key.

setUpDeadLetterStorage();

/** `n` events over `keys` sensors, round robin, in sequence order. */
const batchOf = (n: number, keys: number) =>
  Array.from({ length: n }, (_, i) => receivedEvent(jsonBody(reading({ sensorId: `s${i % keys}` })), i));
const sequencesOf = (n: number, keys: number, key: number) =>
  Array.from({ length: n }, (_, i) => i).filter((i) => i % keys === key);

describe('ordering by key inside a batch', () => {
  it.each([1, 2, 3])('writes each key in sequence order under random delays (seed %i)', async (seed) => {
    const { sink, arrived, maxInFlight } = recordingSink(seed, () => undefined);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 8 })(
      batchOf(200, 20),
      context(),
    );
    expect(result.processed).toBe(200);
    for (let key = 0; key < 20; key++) expect(arrived.get(`s${key}`)).toEqual(sequencesOf(200, 20, key));
    expect(maxInFlight()).toBe(8);
  });

  it.each([1, 3, 16])('never has more than %i calls in flight', async (concurrency) => {
    const { sink, maxInFlight } = recordingSink(7, () => undefined);
    await processor(sink, recordingGate().gate, { mode: 'key', concurrency })(batchOf(100, 50), context());
    expect(maxInFlight()).toBe(concurrency);
  });

  it('an outage-like failure stops only its own key; it and the rest of its key are isolated in order', async () => {
    await drain();
    // Sequence 23 (key s3) always answers 503; every other event is accepted.
    const bad = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 23 ? new RestError('unavailable', { statusCode: 503 }) : undefined;
    for (let rerun = 0; rerun <= 3; rerun++) {
      const { sink, arrived } = recordingSink(rerun, bad);
      const { gate, recorded } = recordingGate();
      const run = processor(sink, gate, { mode: 'key', concurrency: 4 })(batchOf(100, 10), context(rerun));
      if (rerun < 3) await expect(run).rejects.toMatchObject({ code: 'BATCH_HELD' });
      else await expect(run).resolves.toMatchObject({ processed: 100 - 8, deadLettered: 8 });
      // Key s3 reached the sink up to the failing event (tried twice) and never past it; others whole.
      expect(arrived.get('s3')).toEqual([3, 13, 23, 23]);
      for (const key of [0, 1, 2, 4, 5, 6, 7, 8, 9])
        expect(arrived.get(`s${key}`)).toEqual(sequencesOf(100, 10, key));
      // One bad event counts once, not once per later reading of its key.
      expect(recorded.flat().map((s) => s.eventKey)).toEqual(['p0-s23']);
    }
    expect(await drain()).toEqual([23, 33, 43, 53, 63, 73, 83, 93].map((s) => [s, 'isolated']));
  });

  it('partition ordering writes one event at a time, in batch order', async () => {
    const { sink, arrived, maxInFlight } = recordingSink(5, () => undefined);
    await processor(sink, recordingGate().gate, { mode: 'partition', concurrency: 16 })(
      batchOf(60, 6),
      context(),
    );
    expect(maxInFlight()).toBe(1);
    for (let key = 0; key < 6; key++) expect(arrived.get(`s${key}`)).toEqual(sequencesOf(60, 6, key));
  });
});

describe('keys of one write group', () => {
  it('are started together, so the sink can write them as one', async () => {
    const random = seeded(3);
    const inFlight = new Map<string, number>();
    const mostAtOnce = new Map<string, number>();
    let total = 0;
    let most = 0;
    const sink: ActivitySink = {
      async write(r) {
        const now = (inFlight.get(r.homeId) ?? 0) + 1;
        inFlight.set(r.homeId, now);
        mostAtOnce.set(r.homeId, Math.max(mostAtOnce.get(r.homeId) ?? 0, now));
        most = Math.max(most, ++total);
        for (let turns = 1 + Math.floor(random() * 8); turns > 0; turns--)
          await new Promise((resolve) => setImmediate(resolve));
        inFlight.set(r.homeId, now - 1);
        total--;
        return 'applied';
      },
      probe: () => Promise.resolve(),
      orderingKey: (r) => `${r.homeId}/${r.sensorId}`,
      writeGroup: (r) => r.homeId,
    };
    // 30 homes with 3 sensors each, interleaved as a hub partition delivers them.
    const events = Array.from({ length: 90 }, (_, i) =>
      receivedEvent(jsonBody(reading({ homeId: `h${i % 30}`, sensorId: `s${Math.floor(i / 30)}` })), i),
    );
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 16 })(
      events,
      context(),
    );
    expect(result.processed).toBe(90);
    expect([...mostAtOnce.values()]).toEqual(Array.from({ length: 30 }, () => 3));
    expect(most).toBeLessThanOrEqual(16);
  });
});
