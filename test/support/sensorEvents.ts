import type { ReceivedEvent } from '../../src/processing/receivedEvent';
import type { SensorReading } from '../../src/processing/sensorReading';

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
 * Hubs batch to the Node worker: `collectionBytes` for the bodies and JSON typed data for the metadata.
 */
export function rpcEventBatch(
  bodies: Buffer[],
  options: { partitionId?: string; firstSequenceNumber?: number } = {},
) {
  const partitionId = options.partitionId ?? '0';
  const first = options.firstSequenceNumber ?? 0;
  const sequenceNumbers = bodies.map((_, i) => first + i);
  const enqueued = sequenceNumbers.map((s) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, s)).toISOString());
  const json = (value: unknown) => ({ json: JSON.stringify(value) });
  return {
    trigger: { collectionBytes: { bytes: bodies.map((b) => new Uint8Array(b)) } },
    triggerMetadata: {
      PartitionContext: json({
        ConsumerGroup: 'breakwater',
        EventHubName: 'sensor-readings',
        FullyQualifiedNamespace: 'localhost',
        PartitionId: partitionId,
      }),
      SequenceNumberArray: json(sequenceNumbers),
      OffsetArray: json(sequenceNumbers.map((s) => String(s * 1000))),
      EnqueuedTimeUtcArray: json(enqueued),
      PropertiesArray: json(bodies.map((_, i) => ({ producer: 'test', n: i }))),
      SystemPropertiesArray: json(
        sequenceNumbers.map((s, i) => ({
          SequenceNumber: s,
          Offset: String(s * 1000),
          EnqueuedTimeUtc: enqueued[i],
        })),
      ),
    },
  };
}
