import type { Logger } from '../kernel/logger';
import { breakerFormReading } from './switchReading';
import type { TriggerSwitch } from './triggerSwitch';

export interface LocalTriggerSwitch extends TriggerSwitch {
  /** Last value asked for in this process, for the status page; undefined before any call. */
  lastRequested(functionName: string): boolean | undefined;
}

/**
 * Without ARM (local runs: `func start` does not reliably pick up edits to local.settings.json) the
 * listener keeps running and the soft OPEN state holds the stream: each invocation throws
 * CircuitOpenError and the host's retry policy keeps the checkpoint. This switch only says so.
 */
export function makeLocalTriggerSwitch(logger: Logger): LocalTriggerSwitch {
  const requested = new Map<string, boolean>();
  return {
    setDisabled(functionName, disabled) {
      requested.set(functionName, disabled);
      logger.log(
        disabled
          ? `trigger switch (local): ${functionName} stays registered; the soft OPEN state is holding the stream`
          : `trigger switch (local): ${functionName} resumes as soon as the breaker leaves OPEN`,
      );
      return Promise.resolve();
    },
    // What was last asked for: locally nothing else can tell (no settings are written).
    readSwitch: (functionName) =>
      Promise.resolve(breakerFormReading(functionName, requested.get(functionName))),
    lastRequested: (functionName) => requested.get(functionName),
  };
}
