import { EventHubConsumerClient, EventHubProducerClient } from '@azure/event-hubs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type EventHubsPeer, startEventHubsPeer } from '../../sim/eventHubsPeer/eventHubsPeer';
import { partitionForKey } from '../../sim/eventHubsPeer/partitionStore';
import { EventHubModel } from '../../sim/host/eventHubModel';

const HUB = 'sensor-readings';
const KEY = { name: 'RootManageSharedAccessKey', key: 'peer-test-key' };
/** Keeps a failing call short: the client's defaults retry 3 times with 30 s attempts. */
const retryOptions = { maxRetries: 0, timeoutInMs: 5_000 };

describe('Event Hubs peer, driven by the real @azure/event-hubs client', () => {
  let hub: EventHubModel;
  let peer: EventHubsPeer;
  let now: number;
  const clients: { close(): Promise<void> }[] = [];

  beforeEach(async () => {
    hub = new EventHubModel(4);
    now = Date.parse('2026-03-01T03:00:00Z');
    peer = await startEventHubsPeer({ hubName: HUB, store: hub, keys: [KEY], clock: () => now });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await peer.close();
  });
  const producer = (connection = peer.connectionString()) => {
    const client = new EventHubProducerClient(connection, { retryOptions });
    clients.push(client);
    return client;
  };

  it('stores each batch sent by partition key on that key’s partition, in order, with its properties', async () => {
    const client = producer();
    const keys = ['home-0001', 'home-0002', 'home-0003', 'home-0004', 'home-0005', 'home-0006'];
    for (const key of keys) {
      const batch = await client.createBatch({ partitionKey: key });
      for (const n of [1, 2])
        expect(batch.tryAdd({ body: Buffer.from(`${key}#${n}`), properties: { n } })).toBe(true);
      await client.sendBatch(batch);
    }

    for (const key of keys) {
      const onItsPartition = hub
        .read(partitionForKey(key, 4), 0, 100)
        .filter((e) => e.body.toString().startsWith(key));
      expect(
        onItsPartition.map((e) => [e.body.toString(), e.properties]),
        key,
      ).toEqual([
        [`${key}#1`, { n: 1 }],
        [`${key}#2`, { n: 2 }],
      ]);
    }
    expect(hub.all()).toHaveLength(12);
    expect(new Set(keys.map((k) => partitionForKey(k, 4))).size).toBeGreaterThan(1);
    expect(hub.all()[0]?.enqueuedTimeUtc).toBe('2026-03-01T03:00:00.000Z');
  });

  it('stores a batch sent to a partition id on that partition', async () => {
    const client = producer();
    const batch = await client.createBatch({ partitionId: '3' });
    batch.tryAdd({ body: Buffer.from('x') });
    await client.sendBatch(batch);
    expect(hub.size('3')).toBe(1);
    expect(hub.all()).toHaveLength(1);
  });

  it('answers the hub and partition property reads the client parses', async () => {
    const client = producer();
    hub.sendTo('1', Buffer.from('a'), {}, now);
    hub.sendTo('1', Buffer.from('b'), {}, now + 5_000);

    const props = await client.getEventHubProperties();
    expect(props.name).toBe(HUB);
    expect(props.partitionIds).toEqual(['0', '1', '2', '3']);
    const p1 = await client.getPartitionProperties('1');
    expect(p1).toMatchObject({
      partitionId: '1',
      beginningSequenceNumber: 0,
      lastEnqueuedSequenceNumber: 1,
      lastEnqueuedOffset: hub.read('1', 1, 1)[0]?.offset,
      isEmpty: false,
    });
    expect(p1.lastEnqueuedOnUtc.toISOString()).toBe('2026-03-01T03:00:05.000Z');
    expect(await client.getPartitionProperties('0')).toMatchObject({
      isEmpty: true,
      lastEnqueuedSequenceNumber: -1,
    });
  });

  it('delivers events to a receiver from after a sequence number, with their enqueued time', async () => {
    for (let i = 0; i < 5; i++) hub.sendTo('2', Buffer.from(`e${i}`), {}, now + i * 1000);
    const consumer = new EventHubConsumerClient('$Default', peer.connectionString(), { retryOptions });
    clients.push(consumer);
    const received = await new Promise<{ seq: number; at: string }[]>((resolve, reject) => {
      const subscription = consumer.subscribe(
        '2',
        {
          processEvents: async (events) => {
            if (events.length === 0) return;
            await subscription.close();
            resolve(events.map((e) => ({ seq: e.sequenceNumber, at: e.enqueuedTimeUtc.toISOString() })));
          },
          processError: (error) => {
            reject(error);
            return Promise.resolve();
          },
        },
        {
          startPosition: { sequenceNumber: 2, isInclusive: false },
          maxBatchSize: 2,
          maxWaitTimeInSeconds: 5,
        },
      );
    });
    expect(received[0]).toEqual({ seq: 3, at: '2026-03-01T03:00:03.000Z' });
  });

  it('refuses a client whose key does not match (claims-based authorisation)', async () => {
    const client = producer(peer.connectionString({ name: KEY.name, key: 'wrong-key' }));
    await expect(client.getEventHubProperties()).rejects.toThrow(/signature does not match/);
    const batch = await client.createBatch({ partitionKey: 'k' }).catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(Error);
    expect(hub.all()).toHaveLength(0);
  });
});
