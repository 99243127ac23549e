/**
 * A stand-in for `@azure/functions-core`, the module the Azure Functions Node worker injects. Installing
 * it the way the worker does (a proxy on Module.prototype.require) lets the real `@azure/functions`
 * library register our functions and convert RPC-shaped invocations exactly as in production.
 */
import Module from 'node:module';

export interface Registration {
  readonly metadata: {
    readonly name: string;
    readonly bindings: Record<string, { type: string; direction: string; [key: string]: unknown }>;
    readonly retryOptions?: Record<string, unknown>;
    readonly [key: string]: unknown;
  };
  readonly callback: (...args: unknown[]) => unknown;
}

interface ProgrammingModel {
  getInvocationModel(coreCtx: unknown): {
    getArguments(): Promise<{ context: unknown; inputs: unknown[] }>;
    invokeFunction(context: unknown, inputs: unknown[], callback: unknown): Promise<unknown>;
    getResponse(
      context: unknown,
      result: unknown,
    ): Promise<{ returnValue?: unknown; outputData?: unknown[] }>;
  };
}

type HookCallback = (coreContext: Record<string, unknown>) => unknown;

interface FakeCore {
  registry: Map<string, Registration>;
  programmingModel: ProgrammingModel | undefined;
  /** The hooks registered through `app.hook.*`, by hook name, in order. */
  hooks: Map<string, Set<HookCallback>>;
}

class Disposable {
  constructor(private readonly fn?: () => void) {}
  static from(...items: Disposable[]) {
    return new Disposable(() => {
      items.forEach((d) => {
        d.dispose();
      });
    });
  }
  dispose() {
    this.fn?.();
  }
}

const globalKey = Symbol.for('breakwater.fakeFunctionsCore');
type GlobalWithCore = typeof globalThis & { [globalKey]?: FakeCore };

function install(): FakeCore {
  const g = globalThis as GlobalWithCore;
  const existing = g[globalKey];
  if (existing) return existing;
  const state: FakeCore = { registry: new Map(), programmingModel: undefined, hooks: new Map() };
  const coreApi = {
    version: '0.0.0-test',
    hostVersion: '4.1000.0',
    Disposable,
    setProgrammingModel: (model: ProgrammingModel) => {
      state.programmingModel = model;
    },
    getProgrammingModel: () => state.programmingModel,
    registerFunction: (metadata: Registration['metadata'], callback: Registration['callback']) => {
      if (state.registry.has(metadata.name)) throw new Error(`duplicate function name ${metadata.name}`);
      state.registry.set(metadata.name, { metadata, callback });
      return new Disposable(() => state.registry.delete(metadata.name));
    },
    registerHook: (name: string, callback: HookCallback) => {
      const set = state.hooks.get(name) ?? new Set<HookCallback>();
      state.hooks.set(name, set);
      set.add(callback);
      return new Disposable(() => set.delete(callback));
    },
    log: () => undefined,
  };
  const moduleProto = (Module as unknown as { prototype: { require: (id: string) => unknown } }).prototype;
  moduleProto.require = new Proxy(moduleProto.require, {
    apply(target, thisArg, args: [string]) {
      return args[0] === '@azure/functions-core' ? coreApi : Reflect.apply(target, thisArg, args);
    },
  });
  g[globalKey] = state;
  return state;
}

export const fakeCore = install();

/** Forgets every registration: each test file loads the app afresh. */
export function resetRegistrations(): void {
  fakeCore.registry.clear();
}

export function registration(name: string): Registration {
  const found = fakeCore.registry.get(name);
  if (!found)
    throw new Error(`function ${name} is not registered (have: ${[...fakeCore.registry.keys()].join(', ')})`);
  return found;
}

/** The binding of the given type (binding names are generated: look them up by type). */
export function bindingOfType(name: string, type: string) {
  const entry = Object.entries(registration(name).metadata.bindings).find(([, b]) => b.type === type);
  if (!entry) throw new Error(`function ${name} has no ${type} binding`);
  return { name: entry[0], ...entry[1] };
}

export interface RpcInvocation {
  readonly trigger: unknown;
  readonly triggerMetadata?: Record<string, unknown>;
  readonly inputData?: { name: string; data: unknown }[];
  readonly retryContext?: { retryCount: number; maxRetryCount: number };
  readonly invocationId?: string;
  /** Receives the invocation's log lines as they are written (also when the function throws). */
  readonly logs?: LogLine[];
  /** The W3C trace context the host sends with the invocation. */
  readonly traceContext?: { traceParent?: string; traceState?: string };
}

export interface LogLine {
  readonly level: string;
  readonly message: string;
}

let invocationCounter = 0;

/** Invokes a registered function the way the worker does: RPC input → library model → handler → RPC output. */
export async function invokeRpc(name: string, invocation: RpcInvocation) {
  const reg = registration(name);
  const model = fakeCore.programmingModel;
  if (!model) throw new Error('the programming model was not set: was @azure/functions loaded?');
  const triggerBinding = Object.entries(reg.metadata.bindings).find(([, b]) => /Trigger$/.test(b.type));
  if (!triggerBinding) throw new Error(`function ${name} has no trigger`);
  const logs: LogLine[] = invocation.logs ?? [];
  const invocationContext: { current?: unknown } = {};
  const coreCtx = {
    invocationId: invocation.invocationId ?? `inv-${++invocationCounter}`,
    request: {
      inputData: [{ name: triggerBinding[0], data: invocation.trigger }, ...(invocation.inputData ?? [])],
      triggerMetadata: invocation.triggerMetadata ?? {},
      retryContext: invocation.retryContext,
      traceContext: invocation.traceContext,
    },
    metadata: { name, bindings: reg.metadata.bindings },
    state: 'invocation',
    // As the worker does: the log hooks run first, synchronously, and may change a user log.
    log: (level: string, category: string, message: string) => {
      const hook = { level, category, message, invocationContext: invocationContext.current, hookData: {} };
      for (const callback of fakeCore.hooks.get('log') ?? []) callback(hook);
      logs.push(category === 'user' ? { level: hook.level, message: hook.message } : { level, message });
    },
  };
  const invocationModel = model.getInvocationModel(coreCtx);
  const { context, inputs } = await invocationModel.getArguments();
  invocationContext.current = context;
  // The pre-invocation hooks may replace the handler (the trace context binding does).
  const pre = { invocationContext: context, inputs, functionCallback: reg.callback, hookData: {} };
  for (const callback of fakeCore.hooks.get('preInvocation') ?? []) await callback(pre);
  const result = await invocationModel.invokeFunction(context, pre.inputs, pre.functionCallback);
  const response = await invocationModel.getResponse(context, result);
  return { context, result, response, logs };
}
