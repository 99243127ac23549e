import { readFileSync } from 'node:fs';
import path from 'node:path';

import { invokeRpc, registration, type RpcInvocation } from '../../support/fakeFunctionsCore';
import type { EventHubModel, HubEvent } from './eventHubModel';
import type { SimClock } from './simClock';

interface RetryPolicy {
  readonly maxRetryCount: number;
  readonly minimumMs: number;
  readonly maximumMs: number;
}

export interface InvocationRecord {
  readonly at: number;
  readonly partitionId: string;
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly retryCount: number;
  readonly outcome: 'returned' | 'threw' | 'crashed';
  readonly error?: string;
}

interface PartitionState {
  /** Sequence number of the next event to deliver: everything before it is checkpointed. */
  checkpoint: number;
  pending: { events: HubEvent[]; retryCount: number; dueAt: number } | undefined;
  crashNext: boolean;
}

export interface TriggerHostModelOptions {
  readonly functionName: string;
  readonly hub: EventHubModel;
  readonly clock: SimClock;
  /** Whether `AzureWebJobs.<fn>.Disabled` is set, as the host would read it after a settings change. */
  readonly isDisabled: () => Promise<boolean>;
  /** Defaults to host.json `extensions.eventHubs.maxEventBatchSize`. */
  readonly maxBatchSize?: number;
  /** Non-trigger inputs of each invocation (e.g. the durable client binding data). */
  readonly inputData?: () => RpcInvocation['inputData'];
  /**
   * Persists a checkpoint as the host does (e.g. a blob in `azure-webjobs-eventhub`); awaited before the
   * partition's next invocation. `lastProcessed` is the batch's last event.
   */
  readonly onCheckpoint?: (partitionId: string, lastProcessed: HubEvent) => Promise<void>;
}

/**
 * A model of the Functions host running the Event Hubs trigger, faithful to its documented behaviour:
 * - partitions are processed concurrently, one invocation at a time per partition;
 * - a batch holds up to `maxEventBatchSize` (host.json) events from the partition's checkpoint on;
 * - the checkpoint advances after an invocation completes — when it returned, or when it threw and the
 *   registered retry policy has no retries left (the events are then gone from the trigger's view);
 * - while retries remain, the same batch is re-run after the policy's delay and the checkpoint holds;
 *   the retry count lives in the "instance" and restarts at 0 after a restart;
 * - `AzureWebJobs.<fn>.Disabled=true` stops the listener like a host restart: a pending retry is
 *   abandoned without a checkpoint; re-enabling resumes from the checkpoint;
 * - a crash ends an invocation without a checkpoint, so its batch is delivered again.
 *
 * Where it may differ from the real host (documented in the README):
 * - the disabled setting is read between invocations; the real host restarts asynchronously, so an
 *   invocation already running when the setting changes still completes and checkpoints;
 * - a crash is modelled after the invocation has run (the real one may die mid-batch; its effects are
 *   then a prefix of the batch, which the idempotent sink and re-delivery handle the same way);
 * - batches are cut from what is in the partition at invocation time (no `maxWaitTime` batching);
 * - retry delays follow min·2^n capped at max, without the host's jitter.
 */
export class TriggerHostModel {
  readonly invocations: InvocationRecord[] = [];
  /** Events the model checkpointed past after an invocation threw with no retries left. */
  readonly checkpointedAfterFailure: HubEvent[] = [];
  private readonly partitions = new Map<string, PartitionState>();
  private readonly retry: RetryPolicy;
  private readonly maxBatchSize: number;
  private listening = true;

  constructor(private readonly options: TriggerHostModelOptions) {
    this.retry = readRetryPolicy(options.functionName);
    this.maxBatchSize = options.maxBatchSize ?? readMaxBatchSize();
    for (const id of options.hub.partitionIds)
      this.partitions.set(id, { checkpoint: 0, pending: undefined, crashNext: false });
  }

  /** True while the listener runs (the trigger is not disabled). */
  get isListening(): boolean {
    return this.listening;
  }

  checkpoint(partitionId: string): number {
    return this.state(partitionId).checkpoint;
  }

  /** Every event is behind its partition's checkpoint and nothing is pending. */
  get drained(): boolean {
    return [...this.partitions].every(
      ([id, s]) => s.pending === undefined && s.checkpoint >= this.options.hub.size(id),
    );
  }

  /** The next invocation on the partition "crashes": it completes no checkpoint. */
  crashNextInvocation(partitionId: string): void {
    this.state(partitionId).crashNext = true;
  }

  /** One scheduling round at the current virtual time: each eligible partition runs one invocation. */
  async tick(): Promise<void> {
    const disabled = await this.options.isDisabled();
    if (disabled) {
      if (this.listening) {
        // A settings change restarts the host: retries in flight are abandoned, checkpoints stay.
        for (const s of this.partitions.values()) s.pending = undefined;
      }
      this.listening = false;
      return;
    }
    this.listening = true;
    const now = this.options.clock.now();
    await Promise.all(
      [...this.partitions.keys()].map(async (id) => {
        const s = this.state(id);
        if (s.pending && s.pending.dueAt > now) return;
        const batch = s.pending ?? {
          events: this.options.hub.read(id, s.checkpoint, this.maxBatchSize),
          retryCount: 0,
          dueAt: now,
        };
        if (batch.events.length === 0) return;
        await this.invoke(id, s, batch.events, batch.retryCount);
      }),
    );
  }

  private async invoke(partitionId: string, s: PartitionState, events: HubEvent[], retryCount: number) {
    const at = this.options.clock.now();
    const first = events[0]?.sequenceNumber ?? 0;
    const last = events[events.length - 1]?.sequenceNumber ?? 0;
    const record = (outcome: InvocationRecord['outcome'], error?: string) =>
      this.invocations.push({
        at,
        partitionId,
        firstSequence: first,
        lastSequence: last,
        retryCount,
        outcome,
        ...(error ? { error } : {}),
      });
    let threw: unknown;
    try {
      await invokeRpc(this.options.functionName, {
        ...toRpcBatch(events),
        inputData: this.options.inputData?.() ?? [],
        retryContext: { retryCount, maxRetryCount: this.retry.maxRetryCount },
      });
    } catch (error) {
      threw = error ?? new Error('undefined thrown');
    }
    if (s.crashNext) {
      s.crashNext = false;
      s.pending = undefined;
      record('crashed');
      return;
    }
    if (threw === undefined) {
      s.checkpoint = last + 1;
      s.pending = undefined;
      record('returned');
      await this.persistCheckpoint(partitionId, events);
      return;
    }
    record('threw', threw instanceof Error ? `${threw.name}: ${threw.message}` : JSON.stringify(threw));
    const retriesLeft = this.retry.maxRetryCount === -1 || retryCount < this.retry.maxRetryCount;
    if (retriesLeft) {
      const delay = Math.min(this.retry.minimumMs * 2 ** retryCount, this.retry.maximumMs);
      s.pending = { events, retryCount: retryCount + 1, dueAt: this.options.clock.now() + delay };
    } else {
      // What the real host does: checkpoint after the last retry, failure or not.
      this.checkpointedAfterFailure.push(...events);
      s.checkpoint = last + 1;
      s.pending = undefined;
      await this.persistCheckpoint(partitionId, events);
    }
  }

  private async persistCheckpoint(partitionId: string, events: readonly HubEvent[]): Promise<void> {
    const last = events[events.length - 1];
    if (last !== undefined) await this.options.onCheckpoint?.(partitionId, last);
  }

  private state(partitionId: string): PartitionState {
    const s = this.partitions.get(partitionId);
    if (!s) throw new Error(`no partition ${partitionId}`);
    return s;
  }
}

/** The RPC shape in which the host hands a `cardinality: 'many'`, `dataType: 'binary'` batch to the worker. */
export function toRpcBatch(events: readonly HubEvent[]) {
  const json = (value: unknown) => ({ json: JSON.stringify(value) });
  return {
    trigger: { collectionBytes: { bytes: events.map((e) => new Uint8Array(e.body)) } },
    triggerMetadata: {
      PartitionContext: json({
        ConsumerGroup: 'breakwater',
        EventHubName: 'sensor-readings',
        PartitionId: events[0]?.partitionId,
      }),
      SequenceNumberArray: json(events.map((e) => e.sequenceNumber)),
      OffsetArray: json(events.map((e) => e.offset)),
      EnqueuedTimeUtcArray: json(events.map((e) => e.enqueuedTimeUtc)),
      PropertiesArray: json(events.map((e) => e.properties)),
      SystemPropertiesArray: json(
        events.map((e) => ({ SequenceNumber: e.sequenceNumber, Offset: e.offset })),
      ),
    },
  };
}

function readRetryPolicy(functionName: string): RetryPolicy {
  const options = registration(functionName).metadata.retryOptions as
    | { maxRetryCount: number; minimumInterval?: unknown; maximumInterval?: unknown; delayInterval?: unknown }
    | undefined;
  if (!options) return { maxRetryCount: 0, minimumMs: 0, maximumMs: 0 };
  const ms = (d: unknown) => {
    if (typeof d === 'number') return d;
    const { seconds = 0, milliseconds = 0, minutes = 0 } = (d ?? {}) as Record<string, number>;
    return minutes * 60_000 + seconds * 1000 + milliseconds;
  };
  const min = ms(options.minimumInterval ?? options.delayInterval);
  const max = ms(options.maximumInterval ?? options.delayInterval);
  return { maxRetryCount: options.maxRetryCount, minimumMs: min, maximumMs: max };
}

function readMaxBatchSize(): number {
  const host = JSON.parse(readFileSync(path.join(__dirname, '../../../host.json'), 'utf8')) as {
    extensions?: { eventHubs?: { maxEventBatchSize?: number } };
  };
  return host.extensions?.eventHubs?.maxEventBatchSize ?? 100;
}
