import { app } from '@azure/functions';
import * as df from 'durable-functions';

import { createHeartbeatDeps, createWatchdogDeps } from '../composition/orchestrationRuntime';
import { getRuntime } from '../composition/runtime';
import { makeWatchdogHandler } from '../orchestration/watchdogHandler';

const runtime = getRuntime();

/** Every minute: the heartbeat for the alert rules; an OPEN (or HALF_OPEN) trip without a live orchestration gets one. */
app.timer('BreakerWatchdog', {
  schedule: '0 * * * * *',
  extraInputs: [df.input.durableClient()],
  handler: makeWatchdogHandler(
    () => createWatchdogDeps(runtime),
    () => createHeartbeatDeps(runtime),
  ),
});
