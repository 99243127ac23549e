import { makeOnTripped } from '../orchestration/onTripped';
import { makeSavedFirst } from '../retention/drainSaved';
import type { ProcessTrigger } from './registerProcessSensorEvents';
import { savedEventsFor } from './retentionRuntime';
import type { Runtime } from './runtime';

/** What the Event Hubs trigger's registration needs from the runtime. */
export const processTrigger = (runtime: Runtime): ProcessTrigger => ({
  config: runtime.config,
  handler: {
    processBatch: runtime.processBatch,
    triggerRetry: runtime.config.triggerRetry,
    onTripped: makeOnTripped(runtime.config.functionName),
    ...(runtime.config.eventHub.retentionGuard && {
      savedFirst: makeSavedFirst(savedEventsFor(runtime), runtime.processBatch, () => runtime.clock.now()),
    }),
  },
});
