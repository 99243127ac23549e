import { describe, expect, it } from 'vitest';

import { readTriggerBatch } from '../../src/hub/readTriggerBatch';

const metadata = {
  partitionContext: { partitionId: '3', consumerGroup: 'cg', eventHubName: 'hub' },
  sequenceNumberArray: [10, 11],
  offsetArray: ['1000', 1100],
  enqueuedTimeUtcArray: ['2026-01-01T00:00:00Z', '2026-01-01T00:00:01.5Z'],
  propertiesArray: [{ a: 1 }, { b: 2 }],
  systemPropertiesArray: [{ contentType: 'application/json' }, {}],
};

describe('readTriggerBatch', () => {
  it('pairs each body with its partition, sequence number, offset, time and properties', () => {
    const { events, warnings } = readTriggerBatch([Buffer.from('a'), Buffer.from('b')], metadata);
    expect(warnings).toEqual([]);
    expect(events.map((e) => ({ ...e, body: e.body.toString() }))).toEqual([
      {
        index: 0,
        body: 'a',
        partitionId: '3',
        sequenceNumber: 10,
        offset: '1000',
        enqueuedTimeUtc: '2026-01-01T00:00:00.000Z',
        properties: { a: 1 },
        systemProperties: { contentType: 'application/json' },
      },
      {
        index: 1,
        body: 'b',
        partitionId: '3',
        sequenceNumber: 11,
        offset: '1100',
        enqueuedTimeUtc: '2026-01-01T00:00:01.500Z',
        properties: { b: 2 },
        systemProperties: {},
      },
    ]);
  });

  it('turns strings and parsed JSON (other host conversions) back into bytes', () => {
    const { events } = readTriggerBatch(['plain', { homeId: 'h' }, new Uint8Array([1, 2])], {});
    expect(events.map((e) => e.body.toString('hex'))).toEqual([
      Buffer.from('plain').toString('hex'),
      Buffer.from('{"homeId":"h"}').toString('hex'),
      '0102',
    ]);
  });

  it('keeps every event when metadata is missing or inconsistent, and says what is wrong', () => {
    const { events, warnings } = readTriggerBatch([Buffer.from('a'), Buffer.from('b')], {
      ...metadata,
      partitionContext: undefined,
      sequenceNumberArray: [10],
      offsetArray: undefined,
    });
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ partitionId: undefined, sequenceNumber: undefined, offset: undefined });
    expect(warnings).toEqual([
      'triggerMetadata.partitionContext.partitionId is missing',
      'triggerMetadata.sequenceNumberArray has 1 entries for 2 events',
      'triggerMetadata.offsetArray is missing',
    ]);
  });

  it('ignores malformed metadata values instead of inventing them', () => {
    const { events } = readTriggerBatch([Buffer.from('a')], {
      partitionContext: { partitionId: '0' },
      sequenceNumberArray: [-5],
      offsetArray: [{}],
      enqueuedTimeUtcArray: ['yesterday'],
      propertiesArray: ['not an object'],
      systemPropertiesArray: [null],
    });
    expect(events[0]).toMatchObject({
      sequenceNumber: undefined,
      offset: undefined,
      enqueuedTimeUtc: undefined,
      properties: {},
    });
  });

  it('warns when the trigger was not configured for batches', () => {
    const { events, warnings } = readTriggerBatch(Buffer.from('one'), metadata);
    expect(events).toHaveLength(1);
    expect(warnings[0]).toMatch(/cardinality "many"/);
  });

  it('reads an empty batch without warnings', () => {
    expect(readTriggerBatch([], undefined)).toEqual({ events: [], warnings: [] });
  });
});
