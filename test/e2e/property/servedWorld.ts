import { afterAll, beforeAll, inject, vi } from 'vitest';

import { type ServedHub, startServedHub } from '../../../sim/world/servedHub';
import { RedisWorld } from '../worlds/redisWorld';
import { PROPERTY_RETENTION_SECONDS, PROPERTY_SAVE_MARGIN_MINUTES } from './faultProperty';

/**
 * A Redis world for the file's tests beside a hub the app reads (served by the Event Hubs peer), both
 * keeping events the property's retention, the hub following the world's clock: the world the property
 * test and its fixed schedules run on. Call at the top of a file or describe block; read after beforeAll.
 */
export function useServedRedisWorld(hub: { partitions: number; namePrefix: string; key: string }) {
  const worlds: { redisWorld?: RedisWorld; served?: ServedHub } = {};
  beforeAll(async () => {
    const served = await startServedHub({
      storageConnectionString: inject('storageConnectionString'),
      ...hub,
    });
    worlds.served = served;
    // A restart rebuilds the app's memory as a new process would (the host restarts on settings changes).
    const redisWorld = await RedisWorld.create(inject('storageConnectionString'), {
      freshModules: () => vi.resetModules(),
      retentionMs: PROPERTY_RETENTION_SECONDS * 1000,
      // Five minutes of the ten: the guard's run each minute tries five times in the margin, as in
      // Azure it runs many times in its day (a fault in one run, storage down for one, leaves others).
      settings: { ...served.settings, RETENTION_SAVE_MARGIN_MINUTES: String(PROPERTY_SAVE_MARGIN_MINUTES) },
    });
    worlds.redisWorld = redisWorld;
    served.followClock(() => redisWorld.world.clock.now());
  });
  afterAll(async () => {
    await worlds.redisWorld?.close();
    await worlds.served?.close();
  });
  return {
    get redisWorld(): RedisWorld {
      if (worlds.redisWorld === undefined) throw new Error('the served world is read before beforeAll ran');
      return worlds.redisWorld;
    },
    get served(): ServedHub {
      if (worlds.served === undefined) throw new Error('the served world is read before beforeAll ran');
      return worlds.served;
    },
  };
}
