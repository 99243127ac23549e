import { BlobServiceClient } from '@azure/storage-blob';

import { type EventHubsPeer, startEventHubsPeer } from '../../../sim/eventHubsPeer/eventHubsPeer';
import { EventHubModel } from '../../../sim/host/eventHubModel';
import { hostCheckpointWriter } from '../../../sim/host/hostCheckpoints';
import { TriggerHostModel } from '../../../sim/host/triggerHostModel';
import { BreakwaterWorld, FUNCTION_NAME } from '../../../sim/world/breakwaterWorld';
import { CHECKPOINT_CONTAINER, checkpointPrefix } from '../../../src/hub/checkpoints';
import { readCheckpointBlob } from '../../../src/retention/checkpointMove';
import { jsonBody, reading } from '../../support/sensorEvents';

export const HELD_ENVIRONMENT = 'staging-eu';
export const RETENTION_HOURS = 24;
const KEY = { name: 'RootManageSharedAccessKey', key: 'held-backlog-key' };

/**
 * The whole app with its hub behind the Event Hubs peer: the app's own `@azure/event-hubs` client reads
 * partition properties from the same partitions the trigger host model delivers, and the host model
 * writes its checkpoints to Azurite in the layout of the Functions host.
 */
export class HeldBacklogWorld {
  private constructor(
    readonly world: BreakwaterWorld,
    readonly hub: EventHubModel,
    readonly peer: EventHubsPeer,
    readonly host: TriggerHostModel,
  ) {}

  static async create(
    storageConnectionString: string,
    partitions = 4,
    settings: Record<string, string> = {},
  ): Promise<HeldBacklogWorld> {
    const hub = new EventHubModel(partitions);
    // Checkpoint blobs live in one shared container: a hub name of its own keeps runs apart.
    const hubName = `readings-${Math.random().toString(36).slice(2, 8)}`;
    // The peer starts first (the app's settings name it); it follows the world's clock once there is one.
    const time = { now: () => Date.now() };
    const peer = await startEventHubsPeer({
      hubName,
      store: hub,
      keys: [KEY],
      consumerGroups: ['breakwater'],
      clock: () => time.now(),
    });
    const world = await BreakwaterWorld.create({
      storageConnectionString,
      settings: {
        EventHubConnection: peer.connectionString(),
        EVENTHUB_NAME: hubName,
        EVENTHUB_RETENTION_HOURS: String(RETENTION_HOURS),
        ENVIRONMENT_NAME: HELD_ENVIRONMENT,
        // This world has a hub behind the connection: the heartbeat reads the consumer's progress.
        HEARTBEAT_READS_BACKLOG: 'true',
        ...settings,
      },
    });
    time.now = () => world.clock.now();
    // The hub keeps events as long as the app is told (EVENTHUB_RETENTION_HOURS), by the world's clock.
    hub.retain({
      retentionMs: Number(settings.EVENTHUB_RETENTION_HOURS ?? RETENTION_HOURS) * 3_600_000,
      now: () => world.clock.now(),
    });
    const container =
      BlobServiceClient.fromConnectionString(storageConnectionString).getContainerClient(
        CHECKPOINT_CONTAINER,
      );
    const host = new TriggerHostModel({
      functionName: FUNCTION_NAME,
      hub,
      clock: world.clock,
      isDisabled: () => Promise.resolve(world.isDisabled()),
      maxBatchSize: 5,
      inputData: () => world.durableClientInput(FUNCTION_NAME),
      // The peer listens on 127.0.0.1: the host names the namespace by its host name in checkpoint paths.
      onCheckpoint: hostCheckpointWriter(container, {
        fullyQualifiedNamespace: '127.0.0.1',
        hubName,
        consumerGroup: 'breakwater',
      }),
      // A listener that starts reads the checkpoint blobs, as the host does (the retention guard moves them).
      loadCheckpoint: async (id) =>
        (await readCheckpointBlob(container, checkpointPrefix('127.0.0.1', hubName, 'breakwater'), id))
          .sequenceNumber,
    });
    return new HeldBacklogWorld(world, hub, peer, host);
  }

  /** Sends `count` readings from `homes` homes (partition key = homeId) at the current simulated time. */
  send(count: number, homes: number, run: string): void {
    for (let i = 0; i < count; i++) {
      const homeId = `home-${run}-${i % homes}`;
      const body = jsonBody(
        reading({
          homeId,
          sensorId: `door-${i}`,
          occurredAt: new Date(this.world.clock.now()).toISOString(),
        }),
      );
      this.hub.send(homeId, body, { run }, this.world.clock.now());
    }
  }

  /** One simulated second: the host delivers, due orchestration work runs, the clock moves on. */
  async second(): Promise<void> {
    await this.host.tick();
    await this.world.durable.catchUp();
    this.world.clock.advance(1_000);
  }

  /** Runs seconds until an approval email arrived and the trigger is disabled (bounded). */
  async untilTrippedAndDisabled(maxSeconds = 120): Promise<string> {
    for (let s = 0; s < maxSeconds; s++) {
      const link = this.world.approvalLinks()[0];
      if (link !== undefined && !this.host.isListening) return link;
      await this.second();
    }
    throw new Error(`no trip with the trigger disabled within ${maxSeconds} simulated seconds`);
  }

  /** The simulator's truth per partition: events sent minus checkpointed, and the oldest held event. */
  truth(): { partitionId: string; held: number; oldestEnqueuedAt: string | undefined }[] {
    return this.hub.partitionIds.map((partitionId) => {
      const checkpoint = this.host.checkpoint(partitionId);
      return {
        partitionId,
        held: this.hub.size(partitionId) - checkpoint,
        oldestEnqueuedAt: this.hub.read(partitionId, checkpoint, 1)[0]?.enqueuedTimeUtc,
      };
    });
  }

  async close(): Promise<void> {
    await this.peer.close();
    await this.world.close();
  }
}
