import type { HubEvent } from './eventHubModel';
import type { HostInstance, HostInstances } from './hostInstances';

/** Event Hubs extension behaviour: 6.x (6.2+) keeps held batches on shutdown; 5.x checkpoints them. */
export const EVENT_HUBS_EXTENSIONS = ['6.x', '5.x'] as const;
export type EventHubsExtension = (typeof EVENT_HUBS_EXTENSIONS)[number];

export const INVOCATION_OUTCOMES = ['returned', 'threw', 'crashed', 'timed-out', 'killed'] as const;
export type InvocationOutcome = (typeof INVOCATION_OUTCOMES)[number];

export interface InvocationRecord {
  readonly at: number;
  /** The id the invocation ran under (sink writes are recorded with it). */
  readonly invocationId: string;
  readonly instanceId: string;
  readonly partitionId: string;
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly retryCount: number;
  readonly outcome: InvocationOutcome;
  readonly error?: string;
}

export interface Run {
  readonly instance: HostInstance;
  readonly partitionId: string;
  readonly events: HubEvent[];
  readonly retryCount: number;
  fate: 'normal' | 'crash' | 'timeout' | 'worker-restart';
}

export interface RoundFaults {
  /** Up to `maxEventBatchSize` events of the partition from its checkpoint on. */
  readonly read: (partitionId: string) => HubEvent[];
  /** Partitions whose next run crashes its instance (consumed when it happens). */
  readonly crashNext: Set<string>;
  /** Partitions whose next run times out (consumed when it happens). */
  readonly timeoutNext: Set<string>;
}

/**
 * What every instance runs in one round: its due retry loops (owned partitions or not), then a new
 * batch of each owned partition without one. A crash takes every run of its instance with it; a
 * timeout restarts the worker, failing the instance's other runs.
 */
export function planRound(instances: HostInstances, now: number, faults: RoundFaults): Run[] {
  const runs: Run[] = [];
  const run = (instance: HostInstance, partitionId: string, events: HubEvent[], retryCount: number): Run => ({
    instance,
    partitionId,
    events,
    retryCount,
    fate: 'normal',
  });
  for (const instance of instances.all) {
    for (const [partitionId, batch] of instance.pending) {
      if (batch.dueAt <= now) runs.push(run(instance, partitionId, batch.events, batch.retryCount));
    }
    for (const partitionId of instances.owned(instance)) {
      if (instance.pending.has(partitionId)) continue;
      const events = faults.read(partitionId);
      if (events.length > 0) runs.push(run(instance, partitionId, events, 0));
    }
  }
  const crashing = new Set(runs.filter((r) => faults.crashNext.has(r.partitionId)).map((r) => r.instance));
  const timingOut = runs.filter((r) => !crashing.has(r.instance) && faults.timeoutNext.has(r.partitionId));
  for (const r of timingOut) faults.timeoutNext.delete(r.partitionId);
  for (const r of runs) {
    if (crashing.has(r.instance)) {
      r.fate = 'crash';
      faults.crashNext.delete(r.partitionId);
    } else if (timingOut.includes(r)) r.fate = 'timeout';
    else if (timingOut.some((t) => t.instance === r.instance)) r.fate = 'worker-restart';
  }
  return runs;
}

/** The record of one invocation of a run. */
export function invocationRecord(
  run: Run,
  at: number,
  invocationId: string,
  outcome: InvocationOutcome,
  error?: string,
): InvocationRecord {
  return {
    at,
    invocationId,
    instanceId: run.instance.id,
    partitionId: run.partitionId,
    firstSequence: run.events[0]?.sequenceNumber ?? 0,
    lastSequence: run.events[run.events.length - 1]?.sequenceNumber ?? 0,
    retryCount: run.retryCount,
    outcome,
    ...(error ? { error } : {}),
  };
}
