/**
 * Trigger metadata of an Event Hubs batch in the wire types the host really uses over the worker
 * protocol, so the real `@azure/functions` conversion runs on them: `SequenceNumberArray` is a 64-bit
 * integer collection (`collectionSint64`), `OffsetArray` and `PartitionKeyArray` string collections
 * (each element goes through the library's JSON parse), `EnqueuedTimeUtcArray` JSON text of times
 * without a zone, the rest JSON.
 */

/** One event's metadata as the hub holds it. */
export interface WireEvent {
  readonly sequenceNumber: number;
  readonly offset: string;
  /** ISO time in UTC (with `Z`); sent without the zone, as the host does. */
  readonly enqueuedTimeUtc: string;
  readonly partitionKey?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
}

export interface WireOptions {
  /**
   * Deliver 64-bit integers as protobuf `Long` objects `{ low, high, unsigned }`, as Node worker
   * 3.16.0 did (nodejs-worker issue 844), instead of numbers.
   */
  readonly longs?: boolean;
}

/** A 64-bit integer in the shape protobufjs produces when `long` support is on. */
export function asLong(value: number): { low: number; high: number; unsigned: boolean } {
  return { low: (value % 2 ** 32) | 0, high: Math.floor(value / 2 ** 32) | 0, unsigned: false };
}

/** `2026-01-01T00:00:00.123Z` → `2026-01-01T00:00:00.123`: a .NET DateTime serialised without its kind. */
export const withoutZone = (iso: string) => iso.replace(/Z$/, '');

export function rpcTriggerMetadata(
  partitionId: string,
  events: readonly WireEvent[],
  options: WireOptions = {},
) {
  const json = (value: unknown) => ({ json: JSON.stringify(value) });
  const strings = (values: string[]) => ({ collectionString: { string: values } });
  const sequenceNumbers = events.map((e) => e.sequenceNumber);
  return {
    PartitionContext: json({
      ConsumerGroup: 'breakwater',
      EventHubName: 'sensor-readings',
      FullyQualifiedNamespace: 'localhost',
      PartitionId: partitionId,
    }),
    SequenceNumberArray: {
      collectionSint64: { sint64: options.longs ? sequenceNumbers.map(asLong) : sequenceNumbers },
    },
    OffsetArray: strings(events.map((e) => e.offset)),
    PartitionKeyArray: strings(events.map((e) => e.partitionKey ?? '')),
    EnqueuedTimeUtcArray: json(events.map((e) => withoutZone(e.enqueuedTimeUtc))),
    PropertiesArray: json(events.map((e) => e.properties ?? {})),
    SystemPropertiesArray: json(
      events.map((e) => ({
        SequenceNumber: e.sequenceNumber,
        Offset: e.offset,
        EnqueuedTimeUtc: withoutZone(e.enqueuedTimeUtc),
        ...(e.partitionKey === undefined ? {} : { PartitionKey: e.partitionKey }),
      })),
    ),
  };
}
