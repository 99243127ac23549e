import { partitionForKey } from '../eventHubsPeer/partitionStore';
import { checkedRetentionMs, deployedRetentionMs } from './hubRetention';

/** One event as the hub stores it. */
export interface HubEvent {
  readonly partitionId: string;
  readonly sequenceNumber: number;
  readonly offset: string;
  readonly enqueuedTimeUtc: string;
  readonly body: Buffer;
  readonly properties: Readonly<Record<string, unknown>>;
}

/** How long the hub keeps events, judged by an injected (simulated) clock. */
export interface HubRetentionOptions {
  /** Default: the deployed hub's (`eventHubRetentionDays` in infra/). */
  readonly retentionMs?: number;
  /** The clock expiry is judged by (ms since the epoch). Without one nothing expires. */
  readonly now?: () => number;
}

/**
 * Event Hubs as the trigger sees it: partitions are ordered, append-only logs; sequence numbers start
 * at 0 per partition; a partition key always maps to the same partition. Events older than the
 * retention expire, read or not: `read` starts at the earliest retained event, as the service does for
 * a reader positioned before the retained range. Expiry is exact (the service may keep an event a little
 * longer; never shorter), and only the injected clock moves it.
 */
export class EventHubModel {
  private readonly logs: HubEvent[][];
  /** Per partition, the first sequence number not yet expired (expiry only moves forward). */
  private readonly begins: number[];
  private retentionMs: number;
  private now: (() => number) | undefined;

  constructor(
    readonly partitionCount: number,
    retention: HubRetentionOptions = {},
  ) {
    this.logs = Array.from({ length: partitionCount }, () => []);
    this.begins = this.logs.map(() => 0);
    this.retentionMs = checkedRetentionMs(retention.retentionMs ?? deployedRetentionMs(), 'retentionMs');
    this.now = retention.now;
  }

  get partitionIds(): string[] {
    return this.logs.map((_, i) => String(i));
  }

  /** How long an event stays in the hub (simulated ms). */
  get retention(): number {
    return this.retentionMs;
  }

  /** Sets the retention and/or the clock it is judged by (a scenario's setting, the world's clock). */
  retain(options: HubRetentionOptions): void {
    if (options.retentionMs !== undefined)
      this.retentionMs = checkedRetentionMs(options.retentionMs, 'retentionMs');
    if (options.now !== undefined) this.now = options.now;
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

  /** Up to `max` retained events from `fromSequence` on (from the earliest retained one if that expired). */
  read(partitionId: string, fromSequence: number, max: number): HubEvent[] {
    const from = Math.max(fromSequence, this.beginSequenceNumber(partitionId));
    return this.log(partitionId).slice(from, from + max);
  }

  /** The next sequence number of the partition (expired events count: numbers are never reused). */
  size(partitionId: string): number {
    return this.log(partitionId).length;
  }

  /** The earliest retained sequence number of the partition; `size` when every event expired. */
  beginSequenceNumber(partitionId: string): number {
    const log = this.log(partitionId);
    const index = Number(partitionId);
    let begin = this.begins[index] ?? 0;
    const now = this.now?.();
    if (now !== undefined) while (begin < log.length && this.expiredAt(log[begin] as HubEvent, now)) begin++;
    this.begins[index] = begin;
    return begin;
  }

  /** The last event sent to the partition, retained or not. */
  lastEnqueued(partitionId: string): HubEvent | undefined {
    const log = this.log(partitionId);
    return log[log.length - 1];
  }

  /** Whether the hub still holds the event (it did not expire). */
  isRetained(event: Pick<HubEvent, 'partitionId' | 'sequenceNumber'>): boolean {
    return event.sequenceNumber >= this.beginSequenceNumber(event.partitionId);
  }

  /** Every event that expired so far, per partition in sequence order. */
  expired(): HubEvent[] {
    return this.logs.flatMap((log, i) => log.slice(0, this.beginSequenceNumber(String(i))));
  }

  /** Every event ever sent, expired ones included. */
  all(): HubEvent[] {
    return this.logs.flat();
  }

  private expiredAt(event: HubEvent, now: number): boolean {
    return now - Date.parse(event.enqueuedTimeUtc) >= this.retentionMs;
  }

  private log(partitionId: string): HubEvent[] {
    const log = this.logs[Number(partitionId)];
    if (!log) throw new Error(`no partition ${partitionId}`);
    return log;
  }
}
