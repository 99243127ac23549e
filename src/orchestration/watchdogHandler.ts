import type { InvocationContext, Timer } from '@azure/functions';
import * as df from 'durable-functions';

import { ensureError } from '../processing/errors';
import { runWatchdog, type WatchdogDeps } from './runWatchdog';

/** The watchdog timer's handler: its durable client comes from the invocation's extra input. */
export function makeWatchdogHandler(getDeps: () => WatchdogDeps) {
  return async (_timer: Timer, context: InvocationContext): Promise<void> => {
    try {
      await runWatchdog(getDeps(), df.getClient(context), context);
    } catch (error) {
      context.error(`watchdog: could not check the breaker orchestration: ${ensureError(error).message}`);
      throw error;
    }
  };
}
