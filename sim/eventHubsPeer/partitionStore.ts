/** One event as the peer stores and delivers it. */
export interface StoredEvent {
  readonly sequenceNumber: number;
  readonly offset: string;
  /** ISO 8601, UTC. */
  readonly enqueuedTimeUtc: string;
  readonly body: Buffer;
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * The partitions behind the peer: ordered, append-only logs with sequence numbers from 0, whose oldest
 * events expire past the hub's retention (`read` then starts at the earliest retained one). The host
 * model's `EventHubModel` (sim/host/eventHubModel.ts) satisfies this, so what the real producer sends through the
 * peer is what the trigger model delivers.
 */
export interface PartitionStore {
  readonly partitionIds: readonly string[];
  sendTo(partitionId: string, body: Buffer, properties: Record<string, unknown>, now: number): StoredEvent;
  read(partitionId: string, fromSequence: number, max: number): readonly StoredEvent[];
  /** The next sequence number of the partition. */
  size(partitionId: string): number;
  /** The earliest retained sequence number (`size` when every event expired). */
  beginSequenceNumber(partitionId: string): number;
  /** The last event sent to the partition, retained or not (undefined before the first). */
  lastEnqueued(partitionId: string): StoredEvent | undefined;
}

/**
 * The partition a key lands on: FNV-1a (32 bit, over UTF-16 code units) modulo the partition count.
 * Stable like the service's mapping, but NOT Azure's hash: a key lands on a different partition than in
 * a real hub with the same partition count.
 */
export function partitionForKey(partitionKey: string, partitionCount: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < partitionKey.length; i++) {
    hash ^= partitionKey.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return String(hash % partitionCount);
}
