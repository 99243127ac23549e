import type { Clock } from '../kernel/clock';
import type { Logger } from '../kernel/logger';
import type { ActivitySink } from '../sinks/activitySink';
import { InjectedFaultError } from './errors';
import { type FaultState, type FaultSwitchStore, isFaultActive } from './faultState';

export interface FaultSwitchSinkDeps {
  readonly store: Pick<FaultSwitchStore, 'read'>;
  readonly clock: Clock;
  readonly logger: Pick<Logger, 'warn'>;
  /** How long one read of the switch is reused by this instance (the breaker state's cache time). */
  readonly cacheMs: number;
}

/**
 * The sample sink behind the fault switch: while a fault is in force every write and probe fails with
 * a 503-like InjectedFaultError, before the downstream is called. The switch is read at most once per
 * `cacheMs`; a read that fails counts as "no fault" (the switch must never cause an outage of its own).
 * Each instance logs when it starts and stops honouring a fault.
 */
export function withFaultSwitch(sink: ActivitySink, deps: FaultSwitchSinkDeps): ActivitySink {
  let cached: { state: FaultState | undefined; readAt: number } | undefined;
  let honoured: FaultState | undefined;
  const current = async (): Promise<FaultState | undefined> => {
    const now = deps.clock.now();
    if (cached === undefined || now - cached.readAt >= deps.cacheMs) {
      const state = await deps.store.read().catch(() => undefined);
      cached = { state, readAt: now };
    }
    const active = isFaultActive(cached.state, now) ? cached.state : undefined;
    if (active !== undefined && honoured === undefined)
      deps.logger.warn(
        `fault switch: the sample sink is DOWN on purpose until ${new Date(active.downUntil).toISOString()} (set by ${active.by})`,
      );
    if (active === undefined && honoured !== undefined)
      deps.logger.warn('fault switch: the sample sink is back (fault cleared or expired)');
    honoured = active;
    return active;
  };
  const refuse = (state: FaultState) =>
    new InjectedFaultError(
      `fault switch: sample sink down on purpose until ${new Date(state.downUntil).toISOString()}`,
    );
  return {
    ...(sink.orderingKey ? { orderingKey: sink.orderingKey.bind(sink) } : {}),
    async write(reading, event, signal) {
      const fault = await current();
      if (fault !== undefined) throw refuse(fault);
      return sink.write(reading, event, signal);
    },
    async probe(signal) {
      const fault = await current();
      if (fault !== undefined) throw refuse(fault);
      await sink.probe(signal);
    },
  };
}
