import { createActivityDeps, lazily, orchestratorSettingsFrom } from '../composition/orchestrationRuntime';
import { getRuntime } from '../composition/runtime';
import { registerBreakerOrchestration } from '../orchestration/registerBreakerOrchestration';

const runtime = getRuntime();
registerBreakerOrchestration(orchestratorSettingsFrom(runtime.config), lazily(runtime, createActivityDeps));
