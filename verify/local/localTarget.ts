import { TableClient } from '@azure/data-tables';
import { EventHubProducerClient } from '@azure/event-hubs';
import { BlobServiceClient } from '@azure/storage-blob';

import { CHECKPOINT_CONTAINER, checkpointPrefix } from '../../src/hub/checkpoints';
import { type EventHubsPeer, startEventHubsPeer } from '../../sim/eventHubsPeer/eventHubsPeer';
import { EventHubModel } from '../../sim/host/eventHubModel';
import { hostCheckpointWriter } from '../../sim/host/hostCheckpoints';
import { worldTriggerHost } from '../../sim/world/worldTriggerHost';
import { BreakwaterWorld, FUNCTION_KEY, FUNCTION_NAME } from '../../sim/world/breakwaterWorld';
import { tripIdOfLink } from '../mintApprovalLink';
import type { VerifyTarget } from '../target';

export interface LocalServices {
  readonly storageConnectionString: string;
  /** The Redis breaker store; without one the Table store on the same Azurite. */
  readonly redisUrl?: string;
  readonly storeNote?: string;
}

export interface LocalTarget extends VerifyTarget {
  /** The simulated deployment itself, for tests that look behind the run (and `loseOneRow`). */
  readonly world: BreakwaterWorld;
}

const PARTITIONS = 8;
const CONSUMER_GROUP = 'breakwater';
const KEY = { name: 'RootManageSharedAccessKey', key: 'verify-local-key' };

/**
 * The simulator as a deployment: the whole app (BreakwaterWorld: real handlers, durable engine, ARM-
 * shaped server, SMTP) on virtual time, its hub behind the Event Hubs peer so the real producer
 * publishes to it, the trigger host model delivering from it and checkpointing to Azurite in the host's
 * layout. FAULT_SWITCH_ENABLED is on in its settings from the start (this sandbox exists for the run).
 */
export async function createLocalTarget(services: LocalServices): Promise<LocalTarget> {
  const hub = new EventHubModel(PARTITIONS);
  const hubName = `verify-${Math.random().toString(36).slice(2, 8)}`;
  const time = { now: () => Date.now() };
  const peer: EventHubsPeer = await startEventHubsPeer({
    hubName,
    store: hub,
    keys: [KEY],
    consumerGroups: [CONSUMER_GROUP],
    clock: () => time.now(),
  });
  const world = await BreakwaterWorld.create({
    storageConnectionString: services.storageConnectionString,
    settings: {
      ...(services.redisUrl === undefined
        ? { BREAKER_STORE: 'table' }
        : { BREAKER_STORE: 'redis', REDIS_CONNECTION: services.redisUrl }),
      EventHubConnection: peer.connectionString(),
      EVENTHUB_NAME: hubName,
      EVENTHUB_CONSUMER_GROUP: CONSUMER_GROUP,
      ENVIRONMENT_NAME: 'verify-local',
      FAULT_SWITCH_ENABLED: 'true',
    },
  }).catch(async (error: unknown) => {
    await peer.close();
    throw error;
  });
  time.now = () => world.clock.now();
  const blobs = BlobServiceClient.fromConnectionString(services.storageConnectionString);
  const checkpoints = {
    container: blobs.getContainerClient(CHECKPOINT_CONTAINER),
    // The peer listens on 127.0.0.1: the host names the namespace by its host name in checkpoint paths.
    prefix: checkpointPrefix('127.0.0.1', hubName, CONSUMER_GROUP),
  };
  const host = worldTriggerHost(world, {
    hub,
    onCheckpoint: hostCheckpointWriter(checkpoints.container, {
      fullyQualifiedNamespace: '127.0.0.1',
      hubName,
      consumerGroup: CONSUMER_GROUP,
    }),
  });
  world.attachHost(host);
  let second = 0;
  const env = world.env;
  return {
    kind: 'local',
    world,
    describe: [
      `Simulator on this machine: the app on virtual time, breaker store ${services.storeNote ?? (services.redisUrl ? 'Redis' : 'Table')}, hub "${hubName}" (${PARTITIONS} partitions) behind the Event Hubs peer.`,
      `Changes: none outside this process. FAULT_SWITCH_ENABLED=true in the simulator's settings for this run only.`,
      `Approval page and operator API at ${world.http.baseUrl}/api/ (function key of the simulator).`,
    ],
    app: { baseUrl: world.http.baseUrl, functionKey: FUNCTION_KEY },
    functionName: FUNCTION_NAME,
    stores: {
      sinkTable: TableClient.fromConnectionString(
        services.storageConnectionString,
        env.SINK_TABLE_NAME ?? '',
        {
          allowInsecureConnection: true,
        },
      ),
      deadLetters: blobs.getContainerClient(env.DEAD_LETTER_CONTAINER ?? ''),
      checkpoints,
    },
    now: () => world.clock.now(),
    pollMs: 1_000,
    // One simulated second at a time: the host delivers, due durable work runs, the watchdog once a minute.
    async pass(ms) {
      for (let left = ms; left > 0; left -= 1_000) {
        await host.tick();
        await world.durable.catchUp();
        if (second++ % 60 === 59) await world.runWatchdog();
        world.clock.advance(1_000);
      }
    },
    createProducer: () =>
      new EventHubProducerClient(peer.connectionString(), {
        retryOptions: { maxRetries: 1, timeoutInMs: 10_000 },
      }),
    triggerDisabled: () => Promise.resolve(world.isDisabled()),
    enableFaultSwitch: () =>
      Promise.resolve(
        'OK fault switch enabled for this run (FAULT_SWITCH_ENABLED=true in the simulator, off by default)',
      ),
    restoreFaultSwitch: () =>
      Promise.resolve('FAULT_SWITCH_ENABLED: the simulator ends with the run (nothing to restore)'),
    notificationFor: (tripId) => {
      const mail = world.smtp.received.find((m) =>
        world.approvalLinks().some((link) => (m.text ?? '').includes(link) && tripIdOfLink(link) === tripId),
      );
      return Promise.resolve(
        mail ? `email "${mail.subject ?? ''}" with an approval link for this trip` : undefined,
      );
    },
    signingKey: () => Promise.resolve(env.APPROVAL_SIGNING_KEY ?? ''),
    async close() {
      await peer.close();
      await world.close();
    },
  };
}
