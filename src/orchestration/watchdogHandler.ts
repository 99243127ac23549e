import type { InvocationContext, Timer } from '@azure/functions';
import * as df from 'durable-functions';

import { ensureError } from '../processing/errors';
import { emitHeartbeat, type HeartbeatDeps } from '../telemetry/heartbeat';
import { runWatchdog, type WatchdogDeps } from './runWatchdog';

/**
 * The watchdog timer's handler: its durable client comes from the invocation's extra input. Each
 * tick first writes the heartbeat the alert rules read (it never throws).
 */
export function makeWatchdogHandler(getDeps: () => WatchdogDeps, getHeartbeat?: () => HeartbeatDeps) {
  return async (_timer: Timer, context: InvocationContext): Promise<void> => {
    if (getHeartbeat) await emitHeartbeat(getHeartbeat(), context);
    try {
      await runWatchdog(getDeps(), df.getClient(context), context);
    } catch (error) {
      context.error(`watchdog: could not check the breaker orchestration: ${ensureError(error).message}`);
      throw error;
    }
  };
}
