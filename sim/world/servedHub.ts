import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';

import { CHECKPOINT_CONTAINER, checkpointPrefix } from '../../src/hub/checkpoints';
import { readCheckpointBlob } from '../../src/retention/checkpointMove';
import { type EventHubsPeer, startEventHubsPeer } from '../eventHubsPeer/eventHubsPeer';
import type { PartitionStore } from '../eventHubsPeer/partitionStore';
import { EventHubModel } from '../host/eventHubModel';
import { hostCheckpointWriter } from '../host/hostCheckpoints';

const CONSUMER_GROUP = 'breakwater';
/** The peer listens on 127.0.0.1: the host names the namespace by its host name in checkpoint paths. */
const NAMESPACE = '127.0.0.1';

export interface ServedHubOptions {
  readonly storageConnectionString: string;
  readonly partitions: number;
  /** The hub's name starts with this; a random tail keeps runs apart in the shared checkpoint container. */
  readonly namePrefix: string;
  /** The SAS key the peer accepts (a test value: the peer listens on loopback only). */
  readonly key: string;
  /** How long the hub keeps events (simulated ms); default the deployed hub's (infra/). */
  readonly retentionMs?: number;
}

/**
 * A simulated hub as a deployment has it: the partitions the trigger host model delivers from, served to
 * the real `@azure/event-hubs` client by the Event Hubs peer (so the app's held-backlog reader and a
 * producer read and write the same events), and the host's checkpoints in Azurite in the Functions host's
 * blob layout. The demo, `verify --target local` and the held-backlog tests use it.
 */
export interface ServedHub {
  readonly hub: EventHubModel;
  readonly hubName: string;
  /** The app settings that point the app at this hub. */
  readonly settings: Readonly<Record<string, string>>;
  /** Where the host model's checkpoints go, for readers that check them. */
  readonly checkpoints: { readonly container: ContainerClient; readonly prefix: string };
  /** The host model's `onCheckpoint`: writes each checkpoint as the Functions host does. */
  readonly onCheckpoint: ReturnType<typeof hostCheckpointWriter>;
  /** The host model's `loadCheckpoint`: reads the blob back when a listener starts, as the host does. */
  readonly loadCheckpoint: (partitionId: string) => Promise<number | undefined>;
  connectionString(): string;
  /**
   * The peer stamps enqueued times and the hub expires events by this clock (the world's, once there is
   * one). Until it is called nothing expires: expiry never follows real time.
   */
  followClock(now: () => number): void;
  /**
   * A new hub behind the same name and peer, for the next run of a world that runs many: `partitions`
   * partitions, sequence numbers from 0 again, the same retention and clock, and the old checkpoints
   * deleted (as if the hub were re-created). `hub` is the new one from then on.
   */
  replaceHub(partitions: number): Promise<EventHubModel>;
  close(): Promise<void>;
}

export async function startServedHub(options: ServedHubOptions): Promise<ServedHub> {
  const retention = options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs };
  const current = { hub: new EventHubModel(options.partitions, retention) };
  // The peer serves whichever hub is current (replaceHub swaps it).
  const store: PartitionStore = {
    get partitionIds() {
      return current.hub.partitionIds;
    },
    sendTo: (...args) => current.hub.sendTo(...args),
    read: (...args) => current.hub.read(...args),
    size: (id) => current.hub.size(id),
    beginSequenceNumber: (id) => current.hub.beginSequenceNumber(id),
    lastEnqueued: (id) => current.hub.lastEnqueued(id),
  };
  const hubName = `${options.namePrefix}-${Math.random().toString(36).slice(2, 8)}`;
  const time = { now: () => Date.now() };
  const peer: EventHubsPeer = await startEventHubsPeer({
    hubName,
    store,
    keys: [{ name: 'RootManageSharedAccessKey', key: options.key }],
    consumerGroups: [CONSUMER_GROUP],
    clock: () => time.now(),
  });
  const container = BlobServiceClient.fromConnectionString(
    options.storageConnectionString,
  ).getContainerClient(CHECKPOINT_CONTAINER);
  const prefix = checkpointPrefix(NAMESPACE, hubName, CONSUMER_GROUP);
  // Expiry follows the world's clock once given, never the real time the peer starts with.
  let hubClock: (() => number) | undefined;
  return {
    get hub() {
      return current.hub;
    },
    hubName,
    settings: {
      EventHubConnection: peer.connectionString(),
      EVENTHUB_NAME: hubName,
      EVENTHUB_CONSUMER_GROUP: CONSUMER_GROUP,
      // A hub the app can read: the retention guard runs, as in Azure.
      RETENTION_GUARD_ENABLED: 'true',
    },
    checkpoints: { container, prefix },
    onCheckpoint: hostCheckpointWriter(container, {
      fullyQualifiedNamespace: NAMESPACE,
      hubName,
      consumerGroup: CONSUMER_GROUP,
    }),
    loadCheckpoint: async (partitionId) =>
      (await readCheckpointBlob(container, checkpointPrefix(NAMESPACE, hubName, CONSUMER_GROUP), partitionId))
        .sequenceNumber,
    connectionString: () => peer.connectionString(),
    followClock(now) {
      time.now = now;
      hubClock = now;
      current.hub.retain({ now });
    },
    async replaceHub(partitions) {
      const old = current.hub;
      current.hub = new EventHubModel(partitions, { ...retention, retentionMs: old.retention });
      if (hubClock) current.hub.retain({ now: hubClock });
      if (await container.exists())
        for await (const blob of container.listBlobsFlat({ prefix })) await container.deleteBlob(blob.name);
      return current.hub;
    },
    close: () => peer.close(),
  };
}
