import { RestError } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';

import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';
import { readingVersion } from '../../src/sinks/homeActivityTableSink';
import { jsonBody, reading, receivedEvent } from '../support/sensorEvents';
import {
  context,
  drain,
  processor,
  recordingGate,
  recordingSink,
  setUpDeadLetterStorage,
} from './orderingFixture';

// Key mode, with a sink that keeps the newest reading of each key (readingVersion): readings a newer one
// of their key supersedes inside the batch.

setUpDeadLetterStorage();

/** The recording sink, declaring newest wins by version (as both sample sinks do). */
function versionedSink(fail: (r: SensorReading, e: ReceivedEvent) => Error | undefined) {
  const recording = recordingSink(11, fail);
  recording.sink.readingVersion = readingVersion;
  return recording;
}
/** `perKey` readings of each of `keys` sensors, round robin, each newer than the one before. */
const newerAndNewer = (perKey: number, keys: number) =>
  Array.from({ length: perKey * keys }, (_, i) =>
    receivedEvent(
      jsonBody(
        reading({
          sensorId: `s${i % keys}`,
          occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        }),
      ),
      i,
    ),
  );

describe('readings superseded inside a batch', () => {
  it('writes only the newest reading of each key and counts the others as processed', async () => {
    const { sink, arrived } = versionedSink(() => undefined);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(
      newerAndNewer(5, 4),
      context(),
    );
    expect(result).toMatchObject({ processed: 20, deadLettered: 0 });
    for (let key = 0; key < 4; key++) expect(arrived.get(`s${key}`)).toEqual([16 + key]);
    const superseded = result.outcomes.filter(
      (o) => o.status === 'processed' && o.supersededBy !== undefined,
    );
    expect(superseded.map((o) => o.event.sequenceNumber)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(superseded.every((o) => o.status === 'processed' && !o.applied)).toBe(true);
  });

  it('still writes an older reading that comes after a newer one in sequence order', async () => {
    const { sink, arrived } = versionedSink(() => undefined);
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    // Sequence 0 is the newest reading; 1 and 2 arrive later but are older, 2 newer than 1.
    const events = [at(9), at(3), at(5)].map((occurredAt, i) =>
      receivedEvent(jsonBody(reading({ sensorId: 's0', occurredAt })), i),
    );
    await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(events, context());
    // 1 is superseded by 2; 0 and 2 are both newest of what follows them and go in sequence order.
    expect(arrived.get('s0')).toEqual([0, 2]);
  });

  it('holds the readings the newest superseded when the newest fails outage-like', async () => {
    const down = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 13 ? new RestError('unavailable', { statusCode: 503 }) : undefined;
    const { sink, arrived } = versionedSink(down);
    const run = processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 });
    const error = await run(newerAndNewer(4, 4), context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BATCH_HELD' });
    // Key s1's newest (13) was tried twice and failed; nothing older of s1 was reported processed.
    expect(arrived.get('s1')).toEqual([13, 13]);
  });

  it('dead-letters the readings a failing newest superseded with it, in order, once isolated', async () => {
    await drain();
    const down = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 13 ? new RestError('unavailable', { statusCode: 503 }) : undefined;
    const { sink } = versionedSink(down);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(
      newerAndNewer(4, 4),
      context(3),
    );
    expect(result).toMatchObject({ processed: 12, deadLettered: 4 });
    expect(await drain()).toEqual([1, 5, 9, 13].map((s) => [s, 'isolated']));
  });

  it('writes the next newest when the newest is refused, so the row still gets what it would have', async () => {
    await drain();
    const refused = (_r: SensorReading, e: ReceivedEvent) =>
      e.sequenceNumber === 14 ? new RestError('bad reading', { statusCode: 400 }) : undefined;
    const { sink, arrived } = versionedSink(refused);
    const result = await processor(sink, recordingGate().gate, { mode: 'key', concurrency: 4 })(
      newerAndNewer(4, 4),
      context(),
    );
    expect(result).toMatchObject({ processed: 15, deadLettered: 1 });
    expect(arrived.get('s2')).toEqual([14, 10]);
    expect(await drain()).toEqual([[14, 'failed']]);
  });

  it('partition ordering writes every reading, superseded or not', async () => {
    const { sink, arrived } = versionedSink(() => undefined);
    await processor(sink, recordingGate().gate, { mode: 'partition', concurrency: 16 })(
      newerAndNewer(3, 2),
      context(),
    );
    expect(arrived.get('s0')).toEqual([0, 2, 4]);
  });
});
