import type { Runtime, RuntimeOptions } from '../../src/composition/runtime';
import { resetRegistrations } from './fakeFunctionsCore';

/**
 * Loads the app the way a worker process does: builds the runtime (clients, caches) and imports the
 * function modules, which register themselves. `reload` is a new process after a host or worker
 * restart: with `freshModules` (vitest's `vi.resetModules`) every module of the app is evaluated
 * again, so nothing of the old process's memory survives: the gate's state cache, the Redis client,
 * the activities' clients (and an earlier world's registrations are gone). Without it (e.g. under
 * tsx) a reload is not possible and is skipped.
 */
export function makeAppLoader(
  env: Record<string, string>,
  options: RuntimeOptions,
  freshModules?: () => void,
) {
  let loading: Promise<Runtime> | undefined;
  const load = (): Promise<Runtime> => {
    const next = loadOnce().finally(() => {
      if (loading === next) loading = undefined;
    });
    loading = next;
    return next;
  };
  const loadOnce = async (): Promise<Runtime> => {
    if (freshModules) {
      freshModules();
      resetRegistrations();
    }
    const { createRuntime, installRuntime } = await import('../../src/composition/runtime');
    const runtime = createRuntime(env, options);
    installRuntime(runtime);
    await import('../../src/functions/processSensorEvents');
    await import('../../src/functions/breakerOrchestration');
    await import('../../src/functions/breakerWatchdog');
    await import('../../src/functions/approval');
    await import('../../src/functions/operatorApi');
    return runtime;
  };
  return {
    load,
    /** Resolves once no load is under way: every function of the app is registered. */
    async ready(): Promise<void> {
      while (loading) await loading.catch(() => undefined);
    },
    /** A new process: the app's modules and runtime built afresh; undefined when not possible. */
    async reload(): Promise<Runtime | undefined> {
      return freshModules ? load() : undefined;
    },
  };
}
