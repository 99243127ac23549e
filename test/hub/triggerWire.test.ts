import { app, type InvocationContext } from '@azure/functions';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { asLong } from '../../sim/host/triggerWire';
import { readTriggerBatch, type TriggerBatch } from '../../src/hub/readTriggerBatch';
import { rpcEventBatch } from '../support/sensorEvents';

// Batches in the wire types the host really sends (64-bit integer and string collections, times
// without a zone), converted by the real @azure/functions library, then read by readTriggerBatch.
const probe: { last?: TriggerBatch } = {};
beforeAll(() => {
  app.eventHub('WireProbe', {
    connection: 'EventHubConnection',
    eventHubName: 'hub',
    cardinality: 'many',
    handler: (messages: unknown, context: InvocationContext) => {
      probe.last = readTriggerBatch(messages, context.triggerMetadata);
    },
  });
});

async function read(options: Parameters<typeof rpcEventBatch>[1]): Promise<TriggerBatch> {
  const before = probe.last;
  await invokeRpc('WireProbe', rpcEventBatch([Buffer.from('a'), Buffer.from('b')], options));
  const batch = probe.last;
  if (batch === undefined || batch === before) throw new Error('the probe did not run');
  return batch;
}

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('trigger metadata in its wire types', () => {
  it('reads sequence numbers of a 64-bit integer collection', async () => {
    const batch = await read({ firstSequenceNumber: 41 });
    expect(batch.events.map((e) => e.sequenceNumber)).toEqual([41, 42]);
    expect(batch.events.map((e) => e.offset)).toEqual(['41000', '42000']);
    expect(batch.warnings).toEqual([]);
  });

  it('reads sequence numbers delivered as Long objects { low, high, unsigned }, beyond 32 bits too', async () => {
    const first = 2 ** 32 + 7;
    const batch = await read({ firstSequenceNumber: first, wire: { longs: true } });
    expect(batch.events.map((e) => e.sequenceNumber)).toEqual([first, first + 1]);
    expect(batch.warnings).toEqual([]);
  });

  it('reads enqueued times without a zone as UTC, also under TZ=America/New_York', async () => {
    process.env.TZ = 'America/New_York';
    // Node re-reads TZ when it changes: the offset proves the zone is in effect for this test.
    expect(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()).toBe(300);
    const batch = await read({ firstSequenceNumber: 5 });
    expect(batch.events.map((e) => e.enqueuedTimeUtc)).toEqual([
      '2026-01-01T00:00:00.005Z',
      '2026-01-01T00:00:00.006Z',
    ]);
  });
});

describe('readTriggerBatch on unreadable sequence numbers', () => {
  const meta = (sequenceNumberArray: unknown[]) => ({
    partitionContext: { partitionId: '0' },
    sequenceNumberArray,
    offsetArray: ['0', '1'],
    enqueuedTimeUtcArray: ['2026-01-01T00:00:00', '2026-01-01T00:00:01'],
    propertiesArray: [{}, {}],
    systemPropertiesArray: [{}, {}],
  });

  it('accepts Long-shaped objects, bigints and digit strings', () => {
    const { events } = readTriggerBatch([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')], {
      partitionContext: { partitionId: '0' },
      sequenceNumberArray: [asLong(2 ** 40 + 3), 9n, '12'],
    });
    expect(events.map((e) => e.sequenceNumber)).toEqual([2 ** 40 + 3, 9, 12]);
  });

  it('names the column and the shape of what it could not read, never its content', () => {
    const { events, warnings } = readTriggerBatch(
      [Buffer.from('a'), Buffer.from('b')],
      meta([{ value: '<script>' }, 1]),
    );
    expect(events.map((e) => e.sequenceNumber)).toEqual([undefined, 1]);
    expect(warnings).toEqual([
      'triggerMetadata.sequenceNumberArray: 1 of 2 entries unreadable (first at [0]: an object with keys value)',
    ]);
  });
});
