import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventHubConsumerClient, EventHubProducerClient } from '@azure/event-hubs';
import { afterEach, describe, expect, it } from 'vitest';

import { type EventHubsPeer, startEventHubsPeer } from '../../sim/eventHubsPeer/eventHubsPeer';
import { EventHubModel } from '../../sim/host/eventHubModel';
import { deployedRetentionMs } from '../../sim/host/hubRetention';

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-01T03:00:00Z');
const KEY = { name: 'RootManageSharedAccessKey', key: 'retention-test-key' };
const retryOptions = { maxRetries: 0, timeoutInMs: 5_000 };

/** A hub of one partition with an event a minute from T0 (e0 … e{n-1}), expiring by `clock.now`. */
function hubWithEvents(n: number, retentionMs: number) {
  const clock = { now: T0 };
  const hub = new EventHubModel(1, { retentionMs, now: () => clock.now });
  for (let i = 0; i < n; i++) hub.sendTo('0', Buffer.from(`e${i}`), {}, T0 + i * MINUTE);
  return { hub, clock };
}

describe('the simulated hub keeps events only for its retention', () => {
  it('expires an event once its age reaches the retention, by the injected clock, read or not', () => {
    const { hub, clock } = hubWithEvents(5, 10 * MINUTE);
    clock.now = T0 + 10 * MINUTE - 1;
    expect(hub.beginSequenceNumber('0')).toBe(0);
    clock.now = T0 + 12 * MINUTE;
    expect(hub.beginSequenceNumber('0')).toBe(3);
    expect(hub.expired().map((e) => e.sequenceNumber)).toEqual([0, 1, 2]);
    expect(hub.isRetained({ partitionId: '0', sequenceNumber: 2 })).toBe(false);
    expect(hub.isRetained({ partitionId: '0', sequenceNumber: 3 })).toBe(true);
    // Sequence numbers go on; what was sent stays on record for the invariants.
    expect(hub.size('0')).toBe(5);
    expect(hub.all()).toHaveLength(5);
  });

  it('starts a reader positioned before the retained range at the earliest retained event', () => {
    const { hub, clock } = hubWithEvents(5, 10 * MINUTE);
    clock.now = T0 + 12 * MINUTE;
    expect(hub.read('0', 0, 10).map((e) => e.body.toString())).toEqual(['e3', 'e4']);
    expect(hub.read('0', 4, 10).map((e) => e.body.toString())).toEqual(['e4']);
    clock.now = T0 + 60 * MINUTE;
    expect(hub.read('0', 0, 10)).toEqual([]);
    expect(hub.beginSequenceNumber('0')).toBe(5);
  });

  it('never expires by real time: without a clock nothing expires, and the default is the deployed retention', () => {
    const hub = new EventHubModel(1, { retentionMs: 1 });
    hub.sendTo('0', Buffer.from('old'), {}, 0);
    expect(hub.read('0', 0, 1)).toHaveLength(1);
    expect(new EventHubModel(1).retention).toBe(7 * 24 * 60 * MINUTE);
  });

  it('reads the default from the Bicep parameter in infra/main.json and names it when it is missing', () => {
    expect(deployedRetentionMs()).toBe(7 * 86_400_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'retention-'));
    const file = path.join(dir, 'main.json');
    writeFileSync(file, JSON.stringify({ parameters: { eventHubRetentionDays: { type: 'int' } } }));
    expect(() => deployedRetentionMs(file)).toThrow(/eventHubRetentionDays has no whole-day default/);
    expect(() => new EventHubModel(1, { retentionMs: 0 })).toThrow(/retentionMs must be a positive/);
  });
});

describe('the Event Hubs peer serves only the retained range', () => {
  let peer: EventHubsPeer | undefined;
  const clients: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await peer?.close();
  });

  it('reports the earliest retained sequence number and delivers from it to a receiver at the start', async () => {
    const { hub, clock } = hubWithEvents(5, 10 * MINUTE);
    clock.now = T0 + 12 * MINUTE;
    peer = await startEventHubsPeer({ hubName: 'hub', store: hub, keys: [KEY], clock: () => clock.now });
    const producer = new EventHubProducerClient(peer.connectionString(), { retryOptions });
    const consumer = new EventHubConsumerClient('$Default', peer.connectionString(), { retryOptions });
    clients.push(producer, consumer);

    expect(await producer.getPartitionProperties('0')).toMatchObject({
      beginningSequenceNumber: 3,
      lastEnqueuedSequenceNumber: 4,
      isEmpty: false,
    });
    const first = await new Promise<number[]>((resolve, reject) => {
      const subscription = consumer.subscribe(
        '0',
        {
          processEvents: async (events) => {
            if (events.length === 0) return;
            await subscription.close();
            resolve(events.map((e) => e.sequenceNumber));
          },
          processError: (error) => {
            reject(error);
            return Promise.resolve();
          },
        },
        // The earliest position (offset -1), and a sequence number that expired: both start at 3.
        { startPosition: { sequenceNumber: 0 }, maxBatchSize: 5, maxWaitTimeInSeconds: 5 },
      );
    });
    expect(first).toEqual([3, 4]);

    clock.now = T0 + 60 * MINUTE;
    expect(await producer.getPartitionProperties('0')).toMatchObject({
      beginningSequenceNumber: 5,
      lastEnqueuedSequenceNumber: 4,
      isEmpty: true,
    });
  });
});
