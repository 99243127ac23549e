import type { TestProject } from 'vitest/node';

import type { ChromiumSource } from '../../sim/services/chromium';
import { startTestServices } from '../../sim/services/testServices';
import { isToolMissingError } from '../../sim/services/toolMissingError';

declare module 'vitest' {
  export interface ProvidedContext {
    storageConnectionString: string;
    redisUrl: string;
    chromium: ChromiumSource;
  }
}

/**
 * Obtains and starts what the run needs once (Azurite, Redis, Chromium's path) and says what it used in
 * one line; tests isolate themselves by table/queue/key names. Without Redis the run stops here, before
 * any test, with one line saying how to get it.
 */
export default async function setup(project: TestProject) {
  let services;
  try {
    services = await startTestServices();
  } catch (error) {
    if (!isToolMissingError(error)) throw error;
    process.stderr.write(`\nnpm test: ${error.message}\n\n`);
    process.exit(1);
  }
  process.stdout.write(`${services.summary}\n`);
  project.provide('storageConnectionString', services.storageConnectionString);
  project.provide('redisUrl', services.redisUrl);
  project.provide('chromium', services.chromium);
  return services.stop;
}
