import type { HubEvent } from './eventHubModel';
import { invokeRpc } from './fakeFunctionsCore';
import {
  nextRetryDueAt,
  readFunctionTimeoutMs,
  readMaxBatchSize,
  readRetryPolicy,
  type RetryPolicy,
  seededRandom,
} from './hostConfig';
import { type HostInstance, HostInstances } from './hostInstances';
import {
  type InvocationOutcome,
  type InvocationRecord,
  invocationRecord,
  planRound,
  type Run,
} from './hostRound';
import { invocationScope } from './invocationScope';
import { toRpcBatch } from './rpcBatch';
import type { TriggerHostModelOptions } from './triggerHostOptions';

export {
  EVENT_HUBS_EXTENSIONS,
  type EventHubsExtension,
  INVOCATION_OUTCOMES,
  type InvocationOutcome,
  type InvocationRecord,
} from './hostRound';
export { toRpcBatch } from './rpcBatch';
export type { TriggerHostModelOptions } from './triggerHostOptions';

/**
 * A model of the Functions host running the Event Hubs trigger, as unkind as Azure:
 * - partitions are processed concurrently, one invocation at a time per partition and owner;
 * - the checkpoint advances after an invocation completes — when it returned, or when it threw and the
 *   retry policy has no retries left; while retries remain the batch is re-run after the policy's
 *   delay, the checkpoint holds, and the count lives in the instance's memory;
 * - every app-settings change restarts the host on every instance (Flex Consumption, recreate
 *   strategy), after a drawn delay during which the old instances keep running: invocations in flight
 *   when it lands end without a checkpoint, retry loops are dropped (extension 6.x)
 *   or checkpointed past (5.x: the held batch is lost), the app's memory is rebuilt, and
 *   the switch is read again (every form the host accepts);
 * - a partition can move to another instance while its old owner retries a batch: the old owner keeps
 *   re-running it while the new owner reads from the checkpoint (invocations of one partition overlap);
 *   its load balancing is frozen meanwhile, so its other partitions move too, and when its retry finally
 *   succeeds it checkpoints, possibly behind the new owner (backwards);
 * - retry delays are randomised as the host's (seeded);
 * - a timeout (`functionTimeout`) is a failed attempt, re-run by the retry policy, and restarts the
 *   instance's worker: every invocation in flight on that instance fails with it;
 * - a crash ends every invocation of the instance without a checkpoint and loses its retry loops.
 *
 * Where it may differ from the real host: a killed, crashed or timed-out invocation has run to its end
 * (a real one may stop part-way: its effects are then a prefix, handled alike by re-delivery and the
 * idempotent sink); batches are cut from what is in the partition (minEventBatchSize 1); instances
 * share one app runtime (one process here), rebuilt on any restart.
 */
export class TriggerHostModel {
  readonly invocations: InvocationRecord[] = [];
  /** Events the model checkpointed past after an invocation threw with no retries left. */
  readonly checkpointedAfterFailure: HubEvent[] = [];
  /** Events of retry loops checkpointed past when the host shut down (extension 5.x only). */
  readonly checkpointedOnShutdown: HubEvent[] = [];
  readonly restarts: { readonly at: number; readonly reason: string }[] = [];
  /** Checkpoints an old owner's late retry wrote behind the one already there. */
  readonly backwardsCheckpoints: {
    readonly partitionId: string;
    readonly at: number;
    readonly to: number;
  }[] = [];
  readonly instances: HostInstances;
  private readonly checkpoints = new Map<string, number>();
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly maxBatchSize: number;
  readonly functionTimeoutMs: number;
  private readonly crashNext = new Set<string>();
  private readonly timeoutNext = new Set<string>();
  private listening = true;
  private started = false;
  private lastDisabled = false;
  private seenSettings: string | undefined;
  /** When the restart that a seen settings change causes kills the old instances. */
  private restartDueAt: number | undefined;
  /** Delays drawn so far between a settings change and the restart it causes. */
  readonly restartDelays: number[] = [];

  constructor(private readonly options: TriggerHostModelOptions) {
    this.retry = readRetryPolicy(options.functionName);
    this.random = seededRandom(options.seed ?? 1);
    this.maxBatchSize = options.maxBatchSize ?? readMaxBatchSize();
    this.functionTimeoutMs = readFunctionTimeoutMs();
    this.instances = new HostInstances(options.hub.partitionIds, options.instances ?? 1);
    for (const id of options.hub.partitionIds) this.checkpoints.set(id, 0);
    this.seenSettings = options.settingsVersion?.();
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** True while a settings change has not yet restarted the host. */
  get restartPending(): boolean {
    return this.options.settingsVersion !== undefined && this.options.settingsVersion() !== this.seenSettings;
  }

  /**
   * When the pending restart kills the old instances (virtual time), undefined with none pending. The
   * first look after a settings change draws the delay: whatever runs until then runs on the old
   * instances; what runs across it is killed.
   */
  restartLandsAt(): number | undefined {
    if (!this.restartPending) return undefined;
    if (this.restartDueAt === undefined) {
      const delay = Math.max(0, this.options.restartDelayMs?.() ?? 0);
      this.restartDelays.push(delay);
      this.restartDueAt = this.options.clock.now() + delay;
    }
    return this.restartDueAt;
  }

  /** The old instances are dead and the new ones not started yet: no app work runs now. */
  get workerDown(): boolean {
    const landsAt = this.restartLandsAt();
    return landsAt !== undefined && this.options.clock.now() >= landsAt;
  }

  checkpoint(partitionId: string): number {
    return this.checkpoints.get(partitionId) ?? 0;
  }

  /**
   * Every retained event is behind its partition's checkpoint and no retry loop is running (events
   * that expired in the hub past its retention are not waiting any more: nothing can deliver them).
   */
  get drained(): boolean {
    const { hub } = this.options;
    return (
      this.instances.all.every((i) => i.pending.size === 0) &&
      hub.partitionIds.every(
        (id) => Math.max(this.checkpoint(id), hub.beginSequenceNumber(id)) >= hub.size(id),
      )
    );
  }

  /** The instance that next runs this partition crashes then, with every invocation it has in flight. */
  crashNextInvocation(partitionId: string): void {
    this.crashNext.add(partitionId);
  }

  /** The next invocation of this partition runs past `functionTimeout`. */
  timeoutNextInvocation(partitionId: string): void {
    this.timeoutNext.add(partitionId);
  }

  /** Moves a partition to another instance (a new one by default), retry loops and all left behind. */
  stealPartition(partitionId: string, to?: string): string {
    return this.instances.steal(partitionId, to);
  }

  /** A host restart on every instance, as an app-settings change causes. */
  async restartHost(reason: string): Promise<void> {
    const at = this.options.clock.now();
    for (const instance of this.instances.all) {
      for (const [partitionId, batch] of instance.pending) {
        // Extension 5.x (azure-sdk-for-net issue 41784): the cancelled retry loop ends in a checkpoint.
        if (this.options.extension === '5.x') {
          this.checkpointedOnShutdown.push(...batch.events);
          this.checkpoints.set(partitionId, lastOf(batch.events) + 1);
        }
      }
      this.instances.restart(instance);
    }
    this.restarts.push({ at, reason });
    await this.options.onRestart?.(reason);
    this.lastDisabled = await this.options.isDisabled();
    this.listening = !this.lastDisabled;
    if (this.listening) await this.loadCheckpoints();
  }

  /** A listener starting reads the persisted checkpoints (never backwards from what it knows). */
  private async loadCheckpoints(): Promise<void> {
    const load = this.options.loadCheckpoint;
    if (!load) return;
    for (const id of this.options.hub.partitionIds) {
      const last = await load(id);
      if (last !== undefined && last + 1 > this.checkpoint(id)) this.checkpoints.set(id, last + 1);
    }
  }

  /** One scheduling round at the current virtual time. */
  async tick(): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.lastDisabled = await this.options.isDisabled();
      this.listening = !this.lastDisabled;
      if (this.listening) await this.loadCheckpoints();
    }
    if (this.options.settingsVersion) {
      if (this.workerDown) {
        // One restart for every change seen so far: the new instances read the settings as they are.
        this.seenSettings = this.options.settingsVersion();
        this.restartDueAt = undefined;
        await this.restartHost('app settings changed');
      }
    } else {
      const disabled = await this.options.isDisabled();
      if (disabled !== this.lastDisabled) await this.restartHost('disabled setting changed');
    }
    if (!this.listening) return;
    const runs = planRound(this.instances, this.options.clock.now(), {
      read: (id) => this.options.hub.read(id, this.checkpoint(id), this.maxBatchSize),
      crashNext: this.crashNext,
      timeoutNext: this.timeoutNext,
    });
    await Promise.all(runs.map((run) => this.invoke(run)));
    const restarted = new Set<HostInstance>();
    for (const run of runs) {
      if (run.fate === 'normal' || restarted.has(run.instance)) continue;
      restarted.add(run.instance);
      if (run.fate === 'crash') this.instances.restart(run.instance);
      else run.instance.generation++; // a worker restart: the host keeps its retry loops
    }
    for (const instance of restarted) {
      this.restarts.push({ at: this.options.clock.now(), reason: `instance ${instance.id} restarted` });
    }
    if (restarted.size > 0) await this.options.onRestart?.('worker restarted');
  }

  private async invoke(run: Run): Promise<void> {
    const { instance, partitionId, events, retryCount } = run;
    const at = this.options.clock.now();
    const generation = instance.generation;
    const record = (outcome: InvocationOutcome, error?: string) =>
      this.invocations.push(invocationRecord(run, at, invocationId, outcome, error));
    const invocationId = `${instance.id}-${this.invocations.length}-${partitionId}-${at}`;
    let threw: unknown;
    try {
      await invocationScope.run({ instanceId: instance.id, invocationId }, () =>
        invokeRpc(this.options.functionName, {
          ...toRpcBatch(events, this.options.wire),
          invocationId,
          inputData: this.options.inputData?.() ?? [],
          retryContext: { retryCount, maxRetryCount: this.retry.maxRetryCount },
        }),
      );
    } catch (error) {
      threw = error ?? new Error('undefined thrown');
    }
    // A restart that lands while it runs (recreate strategy) kills it: no checkpoint, no retry.
    if (instance.generation !== generation || this.workerDown) {
      record('killed');
      return;
    }
    if (run.fate === 'crash') {
      record('crashed');
      return;
    }
    if (run.fate === 'timeout') threw = new Error(`timed out after ${this.functionTimeoutMs} ms`);
    if (run.fate === 'worker-restart') threw = new Error('the worker process restarted');
    const owner = this.instances.ownerOf(partitionId) === instance.id;
    // Since 6.2 the extension writes no checkpoint for a partition whose ownership was being lost
    // while an invocation ran; a retry loop, though, is not cancelled by the move, and when it finally
    // succeeds it checkpoints, possibly behind the new owner's checkpoint (backwards).
    const lateRetry = !owner && retryCount > 0;
    const mayCheckpoint = owner || this.options.extension === '5.x';
    if (threw === undefined) {
      instance.pending.delete(partitionId);
      record('returned');
      if (!mayCheckpoint && !lateRetry) return;
      const next = lastOf(events) + 1;
      if (next < this.checkpoint(partitionId)) this.backwardsCheckpoints.push({ partitionId, at, to: next });
      this.checkpoints.set(partitionId, next);
      await this.persistCheckpoint(partitionId, events);
      return;
    }
    const message = threw instanceof Error ? `${threw.name}: ${threw.message}` : JSON.stringify(threw);
    record(run.fate === 'timeout' ? 'timed-out' : 'threw', message);
    const dueAt = nextRetryDueAt(this.retry, retryCount, at, this.random);
    if (dueAt !== undefined) {
      instance.pending.set(partitionId, { events, retryCount: retryCount + 1, dueAt });
      return;
    }
    instance.pending.delete(partitionId);
    if (!mayCheckpoint) return;
    // What the real host does: checkpoint after the last retry, failure or not.
    this.checkpointedAfterFailure.push(...events);
    this.checkpoints.set(partitionId, lastOf(events) + 1);
    await this.persistCheckpoint(partitionId, events);
  }

  private async persistCheckpoint(partitionId: string, events: readonly HubEvent[]): Promise<void> {
    const last = events[events.length - 1];
    if (last !== undefined) await this.options.onCheckpoint?.(partitionId, last);
  }
}

const lastOf = (events: readonly HubEvent[]) => events[events.length - 1]?.sequenceNumber ?? 0;
