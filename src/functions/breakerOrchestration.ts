import { createActivityDeps, orchestratorSettingsFrom } from '../composition/orchestrationRuntime';
import { getRuntime } from '../composition/runtime';
import type { BreakerActivityDeps } from '../orchestration/breakerActivities';
import { registerBreakerOrchestration } from '../orchestration/registerBreakerOrchestration';

const runtime = getRuntime();
let deps: BreakerActivityDeps | undefined;

// The orchestrator and its activities; clients for ARM and email are made on the first activity call.
registerBreakerOrchestration(
  orchestratorSettingsFrom(runtime.config),
  () => (deps ??= createActivityDeps(runtime)),
);
