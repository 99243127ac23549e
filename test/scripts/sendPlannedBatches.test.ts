import type { EventData } from '@azure/event-hubs';
import { describe, expect, it } from 'vitest';

import { batchByPartitionKey } from '../../scripts/producer/batchByPartitionKey';
import type { OutgoingEvent } from '../../scripts/producer/generateEvents';
import { type ProducerLike, sendPlannedBatches } from '../../scripts/producer/sendPlannedBatches';

/** A batch that holds at most `capacity` events, like an EventDataBatch whose byte limit is reached. */
class FakeBatch {
  readonly events: EventData[] = [];
  constructor(
    readonly options: { partitionKey: string; maxSizeInBytes: number },
    private readonly capacity: number,
  ) {}
  get count() {
    return this.events.length;
  }
  tryAdd(event: EventData) {
    if (this.events.length >= this.capacity) return false;
    this.events.push(event);
    return true;
  }
}

function fakeClient(capacity: number) {
  const sent: FakeBatch[] = [];
  const client: ProducerLike<FakeBatch> = {
    createBatch: (options) => Promise.resolve(new FakeBatch(options, capacity)),
    sendBatch: (batch) => {
      sent.push(batch);
      return Promise.resolve();
    },
  };
  return { client, sent };
}

const event = (partitionKey: string, tag: string, poison?: OutgoingEvent['poison']): OutgoingEvent => ({
  partitionKey,
  body: new TextEncoder().encode(tag),
  ...(poison ? { poison } : {}),
});
const bodies = (batch: FakeBatch) => batch.events.map((e) => (e.body as Buffer).toString());

describe('sendPlannedBatches', () => {
  it('sends each planned batch under its partition key and size limit', async () => {
    const { client, sent } = fakeClient(100);
    const planned = batchByPartitionKey([event('a', '1'), event('b', '2'), event('a', '3')], {
      maxBatchBytes: 4096,
    });
    await sendPlannedBatches(client, planned, 4096);
    expect(sent.map((b) => [b.options.partitionKey, bodies(b)])).toEqual([
      ['a', ['1', '3']],
      ['b', ['2']],
    ]);
    expect(sent.every((b) => b.options.maxSizeInBytes === 4096)).toBe(true);
  });

  it('splits a batch the service finds too large, in order, without dropping an event', async () => {
    const { client, sent } = fakeClient(2);
    const planned = batchByPartitionKey(
      ['1', '2', '3', '4', '5'].map((t) => event('a', t)),
      {
        maxBatchBytes: 4096,
      },
    );
    expect(planned).toHaveLength(1);
    await sendPlannedBatches(client, planned, 4096);
    expect(sent.map(bodies)).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('fails clearly when an event does not fit even in an empty batch', async () => {
    const { client, sent } = fakeClient(0);
    const planned = batchByPartitionKey([event('home-1', 'x')], { maxBatchBytes: 4096 });
    await expect(sendPlannedBatches(client, planned, 4096)).rejects.toThrow(
      'an event for partition key home-1 does not fit in an empty batch',
    );
    expect(sent).toEqual([]);
  });

  it('sends bodies as JSON bytes and marks poison in the application properties', async () => {
    const { client, sent } = fakeClient(10);
    await sendPlannedBatches(
      client,
      batchByPartitionKey([event('a', '{"ok":1}'), event('a', '{"o', 'non-json')], { maxBatchBytes: 4096 }),
      4096,
    );
    const [valid, poison] = sent[0]!.events;
    expect(valid).toMatchObject({
      contentType: 'application/json',
      properties: { producer: 'produce-events' },
    });
    expect(valid!.properties).not.toHaveProperty('poison');
    expect(poison!.properties).toEqual({ producer: 'produce-events', poison: 'non-json' });
    expect(Buffer.isBuffer(valid!.body)).toBe(true);
  });
});
