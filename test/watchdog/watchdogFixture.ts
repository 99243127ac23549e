import * as df from 'durable-functions';
import { afterAll, beforeAll } from 'vitest';

import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import { registerBreaker } from '../orchestration/breakerFixture';

/** The breaker registered and a durable client server for the file: started before, closed after. */
export function useBreakerServer() {
  let server: DurableClientServer | undefined;
  beforeAll(async () => {
    registerBreaker();
    server = await startDurableClientServer();
  });
  afterAll(() => server?.close());
  const get = () => {
    if (!server) throw new Error('the durable client server is not started (use it inside a test)');
    return server;
  };
  return { server: get, client: () => df.getClient(get().context()) };
}

/** A logger for the watchdog that keeps its warnings. */
export function recordingLogger() {
  const warnings: string[] = [];
  return {
    warnings,
    log: () => undefined,
    error: () => undefined,
    warn: (m: unknown) => warnings.push(String(m)),
  };
}
