import { TriggerHostModel, type TriggerHostModelOptions } from '../host/triggerHostModel';
import { type BreakwaterWorld, FUNCTION_NAME } from './breakwaterWorld';

/**
 * The trigger host model wired to a world, as the real host is to the app: its clock, the `Disabled`
 * setting it reads at start, a restart of the app on every settings change, the durable client input.
 */
export function worldTriggerHost(
  world: BreakwaterWorld,
  options: Omit<
    TriggerHostModelOptions,
    'functionName' | 'clock' | 'isDisabled' | 'settingsVersion' | 'onRestart' | 'inputData'
  >,
): TriggerHostModel {
  return new TriggerHostModel({
    functionName: FUNCTION_NAME,
    clock: world.clock,
    isDisabled: () => Promise.resolve(world.isDisabled()),
    // Every app-settings change (the breaker's own switch included) restarts the host and the app.
    settingsVersion: () => world.settingsVersion(),
    onRestart: () => world.restartApp(),
    restartDelayMs: () => world.timing.restartDelayMs?.() ?? 0,
    inputData: () => world.durableClientInput(FUNCTION_NAME),
    ...options,
  });
}
