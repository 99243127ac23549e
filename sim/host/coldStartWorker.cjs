'use strict';
/**
 * One cold start as the Node worker makes it, in a process of its own and without tsx: a stand-in for
 * `@azure/functions-core` (the module the worker injects; it records the registrations and the
 * programming model), then the app is loaded as the worker loads it: `--app tree` requires every file
 * of the compiled tree that package.json's `main` glob names (dist/src/functions/*.js), `--app <file>`
 * requires that one entry (a staged bundle's dist/main.js). With `--batch <file.json>` (the function's
 * name, the bodies in base64 and the RPC trigger metadata) it then invokes that function once through
 * the programming model, as the worker does, its pre-invocation hooks included.
 *
 * Prints one JSON line: the functions registered, milliseconds to load them, since the process
 * started, the batch's outcome and when it was done (since the process started), the RSS after, and
 * whether Node holds a source map for the entry. With `--by-package`, also the milliseconds each
 * package took to load from the app's own code (inclusive: a package that loads a shared dependency
 * first pays for it).
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const arg = (name) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};

const registered = new Map();
const hooks = new Map();
let programmingModel;
class CoreDisposable {
  dispose() {}
}
const core = {
  version: '0.0.0-cold-start',
  hostVersion: '4.1000.0',
  Disposable: CoreDisposable,
  setProgrammingModel: (model) => {
    programmingModel = model;
  },
  getProgrammingModel: () => programmingModel,
  registerFunction: (metadata, callback) => {
    registered.set(metadata.name, { metadata, callback });
    return new CoreDisposable();
  },
  registerHook: (name, callback) => {
    hooks.set(name, [...(hooks.get(name) ?? []), callback]);
    return new CoreDisposable();
  },
  log: () => undefined,
};
const byPackage = {};
const load = Module._load;
Module._load = function (request, parent) {
  if (request === '@azure/functions-core') return core;
  if (!process.argv.includes('--by-package')) return load.apply(this, arguments);
  const name = /^(@[^/]+\/[^/]+|[^./][^/:]*)/.exec(request)?.[1];
  const fromApp = name !== undefined && !(parent?.filename ?? '').includes('node_modules');
  const start = process.hrtime.bigint();
  try {
    return load.apply(this, arguments);
  } finally {
    if (fromApp) byPackage[name] = (byPackage[name] ?? 0) + Number(process.hrtime.bigint() - start) / 1e6;
  }
};

/** The worker's path for one invocation: RPC input, the library's model, hooks, handler, RPC output. */
async function invoke(name, body64, triggerMetadata) {
  const reg = registered.get(name);
  if (reg === undefined) throw new Error(`function ${name} is not registered`);
  const trigger = Object.entries(reg.metadata.bindings).find(([, b]) => /Trigger$/.test(b.type));
  const bytes = body64.map((b) => new Uint8Array(Buffer.from(b, 'base64')));
  const logs = [];
  const invocation = programmingModel.getInvocationModel({
    invocationId: 'cold-start-1',
    request: {
      inputData: [{ name: trigger[0], data: { collectionBytes: { bytes } } }],
      triggerMetadata,
      retryContext: { retryCount: 0, maxRetryCount: -1 },
    },
    metadata: { name, bindings: reg.metadata.bindings },
    state: 'invocation',
    log: (level, category, message) => logs.push(`${level} ${message}`),
  });
  const { context, inputs } = await invocation.getArguments();
  const pre = { invocationContext: context, inputs, functionCallback: reg.callback, hookData: {} };
  for (const hook of hooks.get('preInvocation') ?? []) await hook(pre);
  const result = await invocation.invokeFunction(context, pre.inputs, pre.functionCallback);
  await invocation.getResponse(context, result);
  return logs;
}

async function main() {
  const app = arg('--app') ?? 'tree';
  const entries =
    app === 'tree'
      ? ((dir) =>
          fs
            .readdirSync(dir)
            .filter((f) => f.endsWith('.js'))
            .map((f) => path.join(dir, f)))(path.resolve(__dirname, '../../dist/src/functions'))
      : [path.resolve(app)];
  const start = process.hrtime.bigint();
  for (const entry of entries) require(entry);
  const loadMs = Number(process.hrtime.bigint() - start) / 1e6;
  const sinceStartMs = process.uptime() * 1000;
  const rssMiB = process.memoryUsage().rss / 2 ** 20;
  const sourceMap = Module.findSourceMap(path.join(path.dirname(entries[0]), 'app.js'));
  const out = {
    registered: [...registered.keys()].sort(),
    loadMs,
    sinceStartMs,
    rssMiB,
    byPackage,
    sourceMapSources: sourceMap?.payload.sources.length ?? 0,
  };
  const batchFile = arg('--batch');
  if (batchFile !== undefined) {
    const batch = JSON.parse(fs.readFileSync(batchFile, 'utf8'));
    try {
      out.batchLogs = await invoke(batch.functionName, batch.bodies, batch.triggerMetadata);
      out.batch = 'done';
    } catch (error) {
      out.batch = `failed: ${String(error?.stack ?? error).slice(0, 2000)}`;
    }
    out.firstBatchMs = process.uptime() * 1000;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  // The app's clients (Redis, timers) would keep a real worker alive; this one has said what it came for.
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
