import type { InvocationContext, Timer } from '@azure/functions';
import * as df from 'durable-functions';

import { ensureError } from '../kernel/ensureError';
import { type RetentionFigures, retentionFigures } from '../retention/retentionFigures';
import { runRetentionGuard } from '../retention/retentionGuard';
import { describeDownstream } from '../sinks/describeDownstream';
import { emitHeartbeat, type HeartbeatDeps } from './heartbeat';
import { probeWhileOpen } from './probeWhileOpen';
import { runWatchdog, type WatchdogDeps } from './runWatchdog';

/**
 * The watchdog timer's handler: its durable client comes from the invocation's extra input. Each tick
 * first writes the heartbeat the alert rules read (it never throws); while the breaker is OPEN it also
 * probes the downstream, once a minute (docs/notify-and-control.md, "Downstream health"). The heartbeat carries the
 * retention guard's figures from the tick before: a slow save never delays the line the alerts read.
 */
export function makeWatchdogHandler(getDeps: () => WatchdogDeps, getHeartbeat?: () => HeartbeatDeps) {
  let lastGuardRun: RetentionFigures | undefined;
  return async (_timer: Timer, context: InvocationContext): Promise<void> => {
    if (getHeartbeat) await emitHeartbeat(getHeartbeat(), context, lastGuardRun);
    const deps = getDeps();
    let failure: Error | undefined;
    try {
      await runWatchdog(deps, df.getClient(context), context);
    } catch (error) {
      context.error(`watchdog: could not check the breaker orchestration: ${ensureError(error).message}`);
      failure = ensureError(error);
    }
    if (deps.retentionGuard !== undefined) {
      // Whatever the breaker does: a partition held while CLOSED needs the guard as much (it never throws).
      const run = await runRetentionGuard(deps.retentionGuard, context);
      lastGuardRun = retentionFigures(run);
      if (run.saved > 0) context.warn(`watchdog: the retention guard saved ${run.saved} events`);
    }
    if (deps.sink !== undefined) {
      try {
        const probe = await probeWhileOpen({ store: deps.store, sink: deps.sink, clock: deps.clock });
        if (probe !== undefined) context.log(`watchdog: ${describeDownstream(probe)}`);
      } catch (error) {
        // Informative only: a probe that cannot be recorded must not fail the watchdog.
        context.warn(`watchdog: could not record a downstream probe: ${ensureError(error).message}`);
      }
    }
    if (failure !== undefined) throw failure;
  };
}
