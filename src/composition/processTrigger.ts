import { makeOnTripped } from '../orchestration/onTripped';
import type { ProcessTrigger } from './registerProcessSensorEvents';
import type { Runtime } from './runtime';

/** What the Event Hubs trigger's registration needs from the runtime. */
export const processTrigger = (runtime: Runtime): ProcessTrigger => ({
  config: runtime.config,
  handler: {
    processBatch: runtime.processBatch,
    triggerRetry: runtime.config.triggerRetry,
    onTripped: makeOnTripped(runtime.config.functionName),
  },
});
