import { breakerFormReading } from '../../src/control/switchReading';
import type { TriggerSwitch } from '../../src/control/triggerSwitch';

/**
 * A fake trigger switch (test only): records every call and fails the next calls as scripted, e.g.
 * `failNext(new TriggerSwitchTransientError(...))` for one 503, or a permission error for a 403.
 */
export interface ScriptedTriggerSwitch extends TriggerSwitch {
  readonly calls: { functionName: string; disabled: boolean; ok: boolean }[];
  /** Disabled as far as successful calls say. */
  readonly disabled: Map<string, boolean>;
  failNext(...errors: Error[]): void;
  /** Fails every call from now on with this error (until `failAlways(undefined)`). */
  failAlways(error: Error | undefined): void;
}

export function scriptedTriggerSwitch(): ScriptedTriggerSwitch {
  const calls: ScriptedTriggerSwitch['calls'] = [];
  const disabled = new Map<string, boolean>();
  const queue: Error[] = [];
  let always: Error | undefined;
  return {
    calls,
    disabled,
    failNext: (...errors) => queue.push(...errors),
    failAlways: (error) => {
      always = error;
    },
    setDisabled(functionName, value) {
      const error = queue.shift() ?? always;
      calls.push({ functionName, disabled: value, ok: error === undefined });
      if (error) return Promise.reject(error);
      disabled.set(functionName, value);
      return Promise.resolve();
    },
    readSwitch: (functionName) =>
      Promise.resolve(breakerFormReading(functionName, disabled.get(functionName))),
  };
}
