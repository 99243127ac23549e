import { app } from '@azure/functions';
import * as df from 'durable-functions';

import type { HeartbeatDeps } from './heartbeat';
import type { WatchdogDeps } from './runWatchdog';
import { makeWatchdogHandler } from './watchdogHandler';

/** Registers the once-a-minute watchdog timer; its deps are built on the first tick. */
export function registerWatchdog(deps: () => WatchdogDeps, heartbeat: () => HeartbeatDeps): void {
  app.timer('BreakerWatchdog', {
    schedule: '0 * * * * *',
    extraInputs: [df.input.durableClient()],
    handler: makeWatchdogHandler(deps, heartbeat),
  });
}
