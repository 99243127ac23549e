import { TableClient } from '@azure/data-tables';
import { EventHubProducerClient } from '@azure/event-hubs';
import { BlobServiceClient } from '@azure/storage-blob';

import { BreakwaterWorld, FUNCTION_KEY, FUNCTION_NAME } from '../../sim/world/breakwaterWorld';
import { startServedHub } from '../../sim/world/servedHub';
import { worldTriggerHost } from '../../sim/world/worldTriggerHost';
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

/**
 * The simulator as a deployment: the whole app (BreakwaterWorld: real handlers, durable engine, ARM-
 * shaped server, SMTP) on virtual time, its hub behind the Event Hubs peer so the real producer
 * publishes to it, the trigger host model delivering from it and checkpointing to Azurite in the host's
 * layout. FAULT_SWITCH_ENABLED is on in its settings from the start (this sandbox exists for the run).
 */
export async function createLocalTarget(services: LocalServices): Promise<LocalTarget> {
  const served = await startServedHub({
    storageConnectionString: services.storageConnectionString,
    partitions: PARTITIONS,
    namePrefix: 'verify',
    key: 'verify-local-key',
  });
  const { hub, hubName } = served;
  const world = await BreakwaterWorld.create({
    storageConnectionString: services.storageConnectionString,
    settings: {
      ...(services.redisUrl === undefined
        ? { BREAKER_STORE: 'table' }
        : { BREAKER_STORE: 'redis', REDIS_CONNECTION: services.redisUrl }),
      ...served.settings,
      ENVIRONMENT_NAME: 'verify-local',
      FAULT_SWITCH_ENABLED: 'true',
      BREAKWATER_VERIFY_ALLOWED: 'true',
    },
  }).catch(async (error: unknown) => {
    await served.close();
    throw error;
  });
  served.followClock(() => world.clock.now());
  const blobs = BlobServiceClient.fromConnectionString(services.storageConnectionString);
  const checkpoints = served.checkpoints;
  const host = worldTriggerHost(world, { hub, onCheckpoint: served.onCheckpoint });
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
      new EventHubProducerClient(served.connectionString(), {
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
      await served.close();
      await world.close();
    },
  };
}
