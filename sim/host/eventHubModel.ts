import { partitionForKey } from '../eventHubsPeer/partitionStore';

/** One event as the hub stores it. */
export interface HubEvent {
  readonly partitionId: string;
  readonly sequenceNumber: number;
  readonly offset: string;
  readonly enqueuedTimeUtc: string;
  readonly body: Buffer;
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * Event Hubs as the trigger sees it: partitions are ordered, append-only logs; sequence numbers start
 * at 0 per partition; a partition key always maps to the same partition.
 */
export class EventHubModel {
  private readonly logs: HubEvent[][];

  constructor(readonly partitionCount: number) {
    this.logs = Array.from({ length: partitionCount }, () => []);
  }

  get partitionIds(): string[] {
    return this.logs.map((_, i) => String(i));
  }

  /** Appends an event to the partition its key hashes to (the Event Hubs peer's stable mapping). */
  send(partitionKey: string, body: Buffer, properties: Record<string, unknown>, now: number): HubEvent {
    return this.sendTo(partitionForKey(partitionKey, this.partitionCount), body, properties, now);
  }

  sendTo(partitionId: string, body: Buffer, properties: Record<string, unknown>, now: number): HubEvent {
    const log = this.log(partitionId);
    const sequenceNumber = log.length;
    const event: HubEvent = {
      partitionId,
      sequenceNumber,
      offset: String(sequenceNumber * 1024),
      enqueuedTimeUtc: new Date(now).toISOString(),
      body,
      properties,
    };
    log.push(event);
    return event;
  }

  /** Up to `max` events from `fromSequence` on. */
  read(partitionId: string, fromSequence: number, max: number): HubEvent[] {
    return this.log(partitionId).slice(fromSequence, fromSequence + max);
  }

  size(partitionId: string): number {
    return this.log(partitionId).length;
  }

  all(): HubEvent[] {
    return this.logs.flat();
  }

  private log(partitionId: string): HubEvent[] {
    const log = this.logs[Number(partitionId)];
    if (!log) throw new Error(`no partition ${partitionId}`);
    return log;
  }
}
