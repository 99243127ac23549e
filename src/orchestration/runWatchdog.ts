import type { DurableClient } from 'durable-functions';

import type { BreakerStore } from '../breaker/breakerStore';
import type { ActivitySink } from '../processing/activitySink';
import type { Logger } from '../processing/logger';
import type { Clock } from '../time/clock';
import { type StartResult, startBreakerOrchestration } from './startBreakerOrchestration';

export interface WatchdogDeps {
  readonly store: BreakerStore;
  readonly clock: Clock;
  readonly functionName: string;
  /**
   * Time after a state change before the watchdog acts: the trigger starts the orchestration right
   * after tripping, and starting it from here at the same moment would race that start.
   */
  readonly graceMs: number;
  /** Probed while OPEN (downstream health on the approval page); absent: no probes. */
  readonly sink?: Pick<ActivitySink, 'probe'>;
}

export type WatchdogResult =
  | { readonly action: 'none'; readonly reason: 'closed' | 'grace' }
  | { readonly action: 'checked'; readonly result: StartResult };

/** One watchdog tick: an OPEN or HALF_OPEN trip with no live orchestration gets one. */
export async function runWatchdog(
  deps: WatchdogDeps,
  client: DurableClient,
  logger: Logger,
): Promise<WatchdogResult> {
  const state = await deps.store.getState();
  if (state.state === 'CLOSED' || state.tripId === undefined) return { action: 'none', reason: 'closed' };
  if (deps.clock.now() - state.since < deps.graceMs) return { action: 'none', reason: 'grace' };
  const result = await startBreakerOrchestration(
    client,
    { tripId: state.tripId, functionName: deps.functionName, failuresInWindow: undefined },
    { restartStopped: true },
  );
  if (result.started)
    logger.warn(
      `watchdog: trip ${state.tripId} is ${state.state} without a live orchestration: ` +
        `${result.restarted ? 'restarted' : 'started'} ${result.instanceId}`,
    );
  return { action: 'checked', result };
}
