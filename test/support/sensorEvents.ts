import { rpcTriggerMetadata, type WireOptions } from '../../sim/host/triggerWire';
import type { ReceivedEvent } from '../../src/hub/receivedEvent';
import type { SensorReading } from '../../src/hub/sensorReading';

export function reading(overrides: Partial<SensorReading> = {}): SensorReading {
  return {
    homeId: 'home-1',
    sensorId: 'door-1',
    kind: 'contact',
    state: 'open',
    occurredAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export const jsonBody = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/** A received event as the trigger would produce it, for unit tests of the processor. */
export function receivedEvent(
  body: Buffer,
  sequenceNumber: number,
  partitionId = '0',
  index = sequenceNumber,
): ReceivedEvent {
  return {
    index,
    body,
    partitionId,
    sequenceNumber,
    offset: String(sequenceNumber * 100),
    enqueuedTimeUtc: new Date(Date.UTC(2026, 0, 1, 0, 0, sequenceNumber)).toISOString(),
    properties: { source: 'test' },
    systemProperties: {},
  };
}

/**
 * The RPC shape in which the Functions host hands a `cardinality: 'many'`, `dataType: 'binary'` Event
 * Hubs batch to the Node worker: `collectionBytes` for the bodies and the metadata in its wire types.
 */
export function rpcEventBatch(
  bodies: Buffer[],
  options: { partitionId?: string; firstSequenceNumber?: number; wire?: WireOptions } = {},
) {
  const partitionId = options.partitionId ?? '0';
  const first = options.firstSequenceNumber ?? 0;
  const events = bodies.map((_, i) => ({
    sequenceNumber: first + i,
    offset: String((first + i) * 1000),
    enqueuedTimeUtc: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, first + i)).toISOString(),
    properties: { producer: 'test', n: i },
  }));
  return {
    trigger: { collectionBytes: { bytes: bodies.map((b) => new Uint8Array(b)) } },
    triggerMetadata: rpcTriggerMetadata(partitionId, events, options.wire),
  };
}
