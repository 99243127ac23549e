import { app } from '@azure/functions';
import * as df from 'durable-functions';

import { createHeartbeatDeps, createWatchdogDeps } from '../composition/orchestrationRuntime';
import { getRuntime } from '../composition/runtime';
import type { WatchdogDeps } from '../orchestration/runWatchdog';
import { makeWatchdogHandler } from '../orchestration/watchdogHandler';

const runtime = getRuntime();
// Built on the first tick (not at load), then kept: the trigger switch and email sender hold clients.
let deps: WatchdogDeps | undefined;

/**
 * Every minute: the heartbeat for the alert rules; an OPEN (or HALF_OPEN) trip without a live
 * orchestration gets one; CLOSED with the trigger disabled is repaired.
 */
app.timer('BreakerWatchdog', {
  schedule: '0 * * * * *',
  extraInputs: [df.input.durableClient()],
  handler: makeWatchdogHandler(
    () => (deps ??= createWatchdogDeps(runtime)),
    () => createHeartbeatDeps(runtime),
  ),
});
