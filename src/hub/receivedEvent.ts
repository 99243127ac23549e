/** One event of a trigger batch with the metadata needed to order, dedupe and replay it. */
export interface ReceivedEvent {
  /** Position in the batch (0-based). */
  readonly index: number;
  /** The body exactly as received. */
  readonly body: Buffer;
  /** Partition id, or undefined when the host sent no partition context. */
  readonly partitionId: string | undefined;
  /** Sequence number in the partition, or undefined when the host sent no metadata. */
  readonly sequenceNumber: number | undefined;
  readonly offset: string | undefined;
  readonly enqueuedTimeUtc: string | undefined;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly systemProperties: Readonly<Record<string, unknown>>;
}

/** Stable identity of an event: partition + sequence number when known. */
export function eventKey(event: ReceivedEvent): string {
  return event.partitionId !== undefined && event.sequenceNumber !== undefined
    ? `p${event.partitionId}-s${event.sequenceNumber}`
    : `unknown-i${event.index}`;
}
