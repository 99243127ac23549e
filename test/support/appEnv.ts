import { inject } from 'vitest';

import { localAppEnv } from '../../sim/host/localAppEnv';

/** App settings for a test: the run's Azurite (see `localAppEnv`). */
export function testAppEnv(
  prefix: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  return localAppEnv(inject('storageConnectionString'), prefix, overrides);
}

/** Puts settings into process.env for code that reads it at module load (the composition root). */
export function applyEnv(env: Record<string, string>): void {
  Object.assign(process.env, env);
}
