import type { TestProject } from 'vitest/node';

import { startAzurite, startRedis } from './localServices';

declare module 'vitest' {
  export interface ProvidedContext {
    storageConnectionString: string;
    redisUrl: string;
  }
}

/** Starts one Azurite and one Redis for the whole run; tests isolate themselves by table/queue/key names. */
export default async function setup(project: TestProject) {
  const azurite = await startAzurite();
  const externalRedis = process.env.REDIS_URL;
  const redis = externalRedis ? undefined : await startRedis();
  project.provide('storageConnectionString', azurite.connectionString);
  project.provide('redisUrl', externalRedis ?? redis!.url);
  return async () => {
    await Promise.all([azurite.stop(), redis?.stop()]);
  };
}
