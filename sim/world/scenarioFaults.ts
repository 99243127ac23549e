import type { EventHubsExtension, TriggerHostModel } from '../host/triggerHostModel';
import type { WireOptions } from '../host/triggerWire';
import { type BreakwaterWorld, FUNCTION_NAME } from './breakwaterWorld';

/** Faults of the host itself in a scenario plan; times are seconds from the run's start. */
export interface HostFaults {
  /** Instances of the app at the start (default 1). */
  readonly instances?: number;
  /** Default `6.x`, what the pinned extension bundle carries. */
  readonly extension?: EventHubsExtension;
  /** Trigger metadata as some worker versions deliver it (Long objects for 64-bit integers). */
  readonly wire?: WireOptions;
  readonly crashes: readonly { readonly at: number; readonly partition: number }[];
  /** The next invocation of the partition runs past `functionTimeout` (its worker restarts). */
  readonly timeouts?: readonly { readonly at: number; readonly partition: number }[];
  /**
   * The partition moves to another instance (`to`, else a new one: scale out), also while a batch of
   * it is being retried on the old owner.
   */
  readonly steals?: readonly { readonly at: number; readonly partition: number; readonly to?: number }[];
  /** Seeds the host's random choices (its randomised retry delays). */
  readonly hostSeed?: number;
  /**
   * Someone edits an unrelated app setting: every instance restarts. With `stray`, the edit sets a form
   * of the switch the breaker never writes, `AzureWebJobs_<fn>_Disabled=<stray>`, which the host reads.
   */
  readonly settingsEdits?: readonly { readonly at: number; readonly stray?: '1' | 'true' }[];
}

/** Timeline wording of host faults. */
export const HOST_FAULT_TIMELINE = {
  steal: (partition: string, to: string) => `partition ${partition} moved to instance ${to}`,
  settingsEdit: 'unrelated app setting edited (host restarts)',
  strayForm: (setting: string) => `stray form of the switch set: ${setting} (host restarts)`,
  timeout: (partition: string) => `invocation of partition ${partition} times out`,
} as const;

/** Applies this second's host faults; returns timeline entries. */
export function applyHostFaults(
  faults: HostFaults,
  partitions: number,
  second: number,
  host: TriggerHostModel,
  world: BreakwaterWorld,
): string[] {
  const entries: string[] = [];
  const partition = (n: number) => String(n % partitions);
  for (const c of faults.crashes) if (c.at === second) host.crashNextInvocation(partition(c.partition));
  for (const t of faults.timeouts ?? []) {
    if (t.at !== second) continue;
    host.timeoutNextInvocation(partition(t.partition));
    entries.push(HOST_FAULT_TIMELINE.timeout(partition(t.partition)));
  }
  for (const s of faults.steals ?? []) {
    if (s.at !== second) continue;
    const count = host.instances.all.length;
    const to = s.to === undefined ? undefined : `i${s.to % count}`;
    entries.push(
      HOST_FAULT_TIMELINE.steal(partition(s.partition), host.stealPartition(partition(s.partition), to)),
    );
  }
  for (const e of faults.settingsEdits ?? []) {
    if (e.at !== second) continue;
    if (e.stray !== undefined) {
      const name = `AzureWebJobs_${FUNCTION_NAME}_Disabled`;
      world.arm.setSettings({ ...world.arm.settings(), [name]: e.stray });
      entries.push(HOST_FAULT_TIMELINE.strayForm(`${name}=${e.stray}`));
      continue;
    }
    world.arm.setSettings({ ...world.arm.settings(), UNRELATED_SETTING: `edited at ${second}` });
    entries.push(HOST_FAULT_TIMELINE.settingsEdit);
  }
  return entries;
}
