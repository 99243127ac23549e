import { createHeartbeatDeps, createWatchdogDeps, lazily } from '../composition/orchestrationRuntime';
import { getRuntime } from '../composition/runtime';
import { registerWatchdog } from '../watchdog/registerWatchdog';

const runtime = getRuntime();
registerWatchdog(lazily(runtime, createWatchdogDeps), () => createHeartbeatDeps(runtime));
