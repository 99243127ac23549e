'use strict';
/**
 * One cold start as the Node worker makes it, in a process of its own and without tsx: a stand-in for
 * `@azure/functions-core` (the module the worker injects; it records the registrations), then every file
 * that package.json's `main` glob names (dist/src/functions/*.js) is required, as the worker loads the app.
 * Prints one JSON line: functions registered, milliseconds to load them, since the process started, and
 * the RSS after. With `--by-package`, also the milliseconds each package took to load from the app's own
 * code (inclusive: a package that loads a shared dependency first pays for it).
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const registered = [];
class CoreDisposable {
  dispose() {}
}
const core = {
  version: '0.0.0-bench',
  hostVersion: '4.1000.0',
  Disposable: CoreDisposable,
  setProgrammingModel: () => undefined,
  getProgrammingModel: () => undefined,
  registerFunction: (metadata) => (registered.push(metadata.name), new CoreDisposable()),
  registerHook: () => new CoreDisposable(),
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

const dir = path.resolve(__dirname, '../dist/src/functions');
const start = process.hrtime.bigint();
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) require(path.join(dir, file));
const loadMs = Number(process.hrtime.bigint() - start) / 1e6;
process.stdout.write(
  `${JSON.stringify({
    registered: registered.length,
    loadMs,
    sinceStartMs: process.uptime() * 1000,
    rssMiB: process.memoryUsage().rss / 2 ** 20,
    byPackage,
  })}\n`,
);
