import type { HubEvent } from './eventHubModel';

/** A batch in the retry loop of one instance: re-run when due, checkpoint held. */
export interface PendingBatch {
  readonly events: HubEvent[];
  readonly retryCount: number;
  readonly dueAt: number;
}

/** One instance of the function app: what the host keeps in its memory. */
export interface HostInstance {
  readonly id: string;
  /** Changes on every restart of the instance (host or worker): in-flight work of before is dead. */
  generation: number;
  /** Retry loops by partition, including ones for partitions this instance no longer owns. */
  readonly pending: Map<string, PendingBatch>;
}

/**
 * The instances of the app and which one owns each partition. Ownership starts round robin and moves
 * with `steal` (load balancing, scale out); a move does not stop the old owner's retry loop.
 */
export class HostInstances {
  readonly all: HostInstance[] = [];
  private readonly owners = new Map<string, string>();
  /** Ownership changes so far (0: every partition stayed where it started). */
  moves = 0;

  constructor(partitionIds: readonly string[], count: number) {
    for (let i = 0; i < Math.max(1, count); i++) this.add();
    partitionIds.forEach((id, i) => this.owners.set(id, this.all[i % this.all.length]?.id ?? 'i0'));
  }

  add(): HostInstance {
    const instance: HostInstance = { id: `i${this.all.length}`, generation: 0, pending: new Map() };
    this.all.push(instance);
    return instance;
  }

  ownerOf(partitionId: string): string {
    return this.owners.get(partitionId) ?? 'i0';
  }

  owned(instance: HostInstance): string[] {
    return [...this.owners].filter(([, owner]) => owner === instance.id).map(([id]) => id);
  }

  get(instanceId: string): HostInstance {
    const found = this.all.find((i) => i.id === instanceId);
    if (!found) throw new Error(`no instance ${instanceId}`);
    return found;
  }

  /**
   * Moves a partition to another instance (a new one when `to` is omitted: scale out). An old owner
   * with a retry loop waiting has its load balancing frozen (the loop runs inside the partition's
   * handler, which the stop path awaits): it renews none of its leases, so its other partitions lapse
   * and the claiming instance takes them too.
   */
  steal(partitionId: string, to?: string): string {
    const target = to ?? this.add().id;
    const from = this.ownerOf(partitionId);
    const moving = [partitionId];
    const old = this.all.find((i) => i.id === from);
    if (old !== undefined && old.pending.size > 0 && from !== target) moving.push(...this.owned(old));
    for (const id of new Set(moving)) {
      if (this.ownerOf(id) !== target) this.moves++;
      this.owners.set(id, target);
    }
    return target;
  }

  /** The instance restarts: its retry loops and counts are gone. */
  restart(instance: HostInstance): void {
    instance.generation++;
    instance.pending.clear();
  }
}
