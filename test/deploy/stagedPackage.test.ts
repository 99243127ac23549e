import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { TableClient } from '@azure/data-tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { planPackage } from '../../scripts/package/planPackage';
import { stagePackage } from '../../scripts/package/stagePackage';
import { fakeCore } from '../../sim/host/fakeFunctionsCore';
import { endpointPort, withEndpointPort } from '../../sim/net/faultProxy';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';
import { repoRoot } from './armTemplate';

/** What sim/host/coldStartWorker.cjs prints: one worker process that loaded the app (and ran a batch). */
interface WorkerRun {
  readonly registered: readonly string[];
  readonly sourceMapSources: number;
  readonly batch?: string;
}

let dir: string;
let pkg: string;
let staged: Awaited<ReturnType<typeof stagePackage>>;
const env = testAppEnv('pkg');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'staged-package-'));
  pkg = join(dir, 'package');
  staged = await stagePackage(repoRoot, pkg);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the staged package in a worker process of its own (plain node, the bundle only), with `settings`. */
async function runWorker(settings: Record<string, string>, batch?: unknown): Promise<WorkerRun> {
  const args = [resolve(repoRoot, 'sim/host/coldStartWorker.cjs'), '--app', join(pkg, 'dist/main.js')];
  if (batch !== undefined) {
    const file = join(dir, `batch-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(batch));
    args.push('--batch', file);
  }
  // Run from the package's folder, as the host runs the app from its script root: nothing of the
  // repository's node_modules is on the resolution path of the bundle.
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: pkg,
    env: { PATH: process.env.PATH ?? '', AzureWebJobsScriptRoot: pkg, ...settings },
    maxBuffer: 16 * 2 ** 20,
  });
  return JSON.parse(stdout) as WorkerRun;
}

function sensorBatch(homeId: string) {
  const bodies = ['door-1', 'door-2', 'window-1'].map((sensorId) => jsonBody(reading({ homeId, sensorId })));
  const { triggerMetadata } = rpcEventBatch(bodies, { partitionId: '3', firstSequenceNumber: 100 });
  return {
    functionName: 'ProcessSensorEvents',
    bodies: bodies.map((b) => b.toString('base64')),
    triggerMetadata,
  };
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(root, path)).isFile())
    .map((path) => path.replace(/\\/g, '/'))
    .sort();
}

describe('the staged package is the app bundled (what azd deploy zips)', () => {
  it('is host.json, a package.json naming the bundle, the bundles and a map: no node_modules', () => {
    expect(filesUnder(pkg)).toEqual([
      '.funcignore',
      'dist/app.js',
      'dist/app.js.map',
      'dist/arm.js',
      'dist/main.js',
      'host.json',
      'package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
    const own = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ main: 'dist/main.js', engines: own.engines, version: own.version });
    expect(manifest).not.toHaveProperty('dependencies');
    expect(readFileSync(join(pkg, 'host.json'), 'utf8')).toBe(
      readFileSync(join(repoRoot, 'host.json'), 'utf8'),
    );
  });

  it('holds production dependencies only: none of the lock`s dev-only packages is in a bundle', () => {
    const production = new Set(planPackage(repoRoot).productionModules);
    const bundled = new Set(
      staged.inputs.flatMap((input) => /^(node_modules\/(@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []),
    );
    expect(bundled.size).toBeGreaterThan(50);
    expect([...bundled].filter((name) => !production.has(name))).toEqual([]);
    expect(staged.inputs.filter((input) => !input.startsWith('node_modules/'))).toEqual(
      expect.arrayContaining(['src/functions/processSensorEvents.ts', 'src/composition/runtime.ts']),
    );
  });

  it('registers every function the source tree registers, loaded by a worker from the bundle alone', async () => {
    applyEnv(env);
    for (const file of readdirSync(resolve(repoRoot, 'src/functions')))
      await import(/* @vite-ignore */ resolve(repoRoot, 'src/functions', file));
    const fromTree = [...fakeCore.registry.keys()].sort();
    expect(fromTree.length).toBeGreaterThan(15);
    const run = await runWorker(env);
    expect(run.registered).toEqual(fromTree);
    // Node read the app's map when it loaded the bundle (main.js turns source maps on first).
    expect(run.sourceMapSources).toBeGreaterThan(100);
  });

  it('processes a batch through the bundled SDKs: the readings are in the sink table', async () => {
    const run = await runWorker(env, sensorBatch('home-bundled'));
    expect(run.batch).toBe('done');
    const table = TableClient.fromConnectionString(env.AzureWebJobsStorage!, env.SINK_TABLE_NAME!, {
      allowInsecureConnection: true,
    });
    const rows: string[] = [];
    for await (const row of table.listEntities({
      queryOptions: { filter: "PartitionKey eq 'home-bundled'" },
    }))
      rows.push(`${row.rowKey}@${String(row.eventSequenceNumber)}`);
    expect(rows.sort()).toEqual(['door-1@100', 'door-2@101', 'window-1@102']);
  });

  it('names the app`s TypeScript file and line in the stack of a batch it holds', async () => {
    // The sink's storage refuses every connection: the batch is held, its error thrown from src/.
    const closed = withEndpointPort(env.AzureWebJobsStorage!, 'TableEndpoint', 9);
    expect(endpointPort(closed, 'TableEndpoint')).toBe(9);
    const run = await runWorker({ ...env, AzureWebJobsStorage: closed }, sensorBatch('home-held'));
    const [, name] = /^failed: (\w+): holding the batch/.exec(run.batch ?? '') ?? [];
    expect(name).toBe('BatchHeldError');
    const frames = [...(run.batch ?? '').matchAll(/\((.*?[\\/]src[\\/][\w/\\]+\.ts):(\d+):(\d+)\)/g)];
    expect(frames.length).toBeGreaterThan(2);
    // The top frame is where the error was made: that line of that file, in the repository.
    const [, file, line, column] = frames[0]!;
    const source = readFileSync(resolve(repoRoot, relative(pkg, file!)), 'utf8').split('\n');
    expect(source[Number(line) - 1]?.slice(Number(column) - 1)).toMatch(/^new BatchHeldError\(/);
  });
});

describe('a package that cannot be staged', () => {
  /** A project with one function module importing `imported`, and the given lock. */
  function project(imported: string, lock: object): string {
    const root = mkdtempSync(join(tmpdir(), 'unstageable-'));
    mkdirSync(join(root, 'src/functions'), { recursive: true });
    writeFileSync(join(root, 'host.json'), '{"version":"2.0"}\n');
    writeFileSync(join(root, 'package.json'), '{"name":"unstageable","version":"0.0.0"}\n');
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify(lock));
    writeFileSync(join(root, 'src/functions/probe.ts'), `import '${imported}';\n`);
    return root;
  }

  it('refuses an import that is not installed, naming it, and leaves no half-staged folder to deploy', async () => {
    const root = project('breakwater-not-installed', { lockfileVersion: 3, packages: {} });
    const out = join(root, '.package');
    try {
      await expect(stagePackage(root, out)).rejects.toThrow(/Could not resolve "breakwater-not-installed"/);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a lock without a packages map (npm 6), saying which lock version it needs', async () => {
    const root = project('node:path', { lockfileVersion: 1, dependencies: {} });
    const out = join(root, '.package');
    try {
      await expect(stagePackage(root, out)).rejects.toThrow(/lockfileVersion 2 or later is needed/);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
