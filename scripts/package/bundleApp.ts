import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';

import { appSourceMap } from './appSourceMap';
import { planPackage } from './planPackage';

/** The module the Functions Node worker injects at run time: never bundled, never shipped. */
export const WORKER_PROVIDED = ['@azure/functions-core'] as const;

/**
 * Packages the app loads only when first needed, each bundled into a file of its own next to the app's:
 * in the app's bundle their source would be read and held by every process, also one that never
 * switches the trigger. `import('@azure/arm-appservice')` in the app becomes `import('./arm.js')`.
 */
export const LAZY_BUNDLES = { '@azure/arm-appservice': 'arm.js' } as const;

export interface AppBundle {
  /** Files written under `outDir`, relative to it. */
  readonly files: readonly string[];
  /** Every source file the bundles hold, relative to the project root (`node_modules/...` or `src/...`). */
  readonly inputs: readonly string[];
}

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: [...WORKER_PROVIDED],
  metafile: true,
  logLevel: 'silent',
  // Whitespace only: 30 % less source for every process to read and hold (docs/benchmarks.md#cold-start);
  // names stay as written, for stack traces and the SDKs' error names.
  minifyWhitespace: true,
  keepNames: true,
  // An ES module build in a CommonJS bundle (`open`, which @azure/identity loads for a browser sign-in)
  // finds its own file through `import.meta.url`, which CommonJS lacks: it is the bundle's.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** Resolves each lazily loaded package to its own bundle, left outside the app's. */
const lazyBundles: Plugin = {
  name: 'lazy-bundles',
  setup(plugin) {
    for (const [name, file] of Object.entries(LAZY_BUNDLES))
      plugin.onResolve({ filter: new RegExp(`^${name.replace(/[/]/g, '\\/')}$`) }, (args) =>
        args.kind === 'dynamic-import' ? { path: `./${file}`, external: true } : undefined,
      );
  },
};

/**
 * Every package resolves to the build the compiled tree loads, and only production packages are
 * bundled. With `asRequired`, a static import resolves as tsc's `require` does: to the package's
 * CommonJS build, the one the tests ran. A package the lock marks dev-only stays a plain `require` in
 * the bundle, which fails at run time as it does in a package without it: `debug` tries for
 * `supports-color`, installed here for the test runner only, and carries on without it.
 */
function packagesAsDeployed(production: ReadonlySet<string>, asRequired: boolean): Plugin {
  return {
    name: 'packages-as-deployed',
    setup(plugin) {
      plugin.onResolve({ filter: /^[^./]/ }, async (args) => {
        const data = args.pluginData as { readonly resolving?: true } | undefined;
        if (data?.resolving === true || args.kind === 'entry-point') return undefined;
        if ((WORKER_PROVIDED as readonly string[]).includes(args.path) || args.path.startsWith('node:'))
          return undefined;
        const found = await plugin.resolve(args.path, {
          kind: asRequired && args.kind === 'import-statement' ? 'require-call' : args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (found.errors.length > 0 || found.external) return found;
        const name = /(?:^|[\\/])node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(found.path)?.[1];
        if (name !== undefined && !production.has(name.replace(/\\/g, '/')))
          return { path: args.path, external: true };
        return found;
      });
    },
  };
}

/**
 * Bundles the app into `outDir/dist`: `app.js` holds every function module of `src/functions` (each
 * registers itself when loaded) and the production dependencies they import, `app.js.map` maps the
 * app's part of it back to `src/` (scripts/package/appSourceMap.ts), `main.js`, the entry package.json
 * names, turns Node's source maps on before it loads `app.js` (Node reads a file's map only when that
 * is on before the file loads), so a stack trace in Application Insights names `src/...ts` lines; and
 * one file per lazily loaded package (LAZY_BUNDLES).
 *
 * Built from the TypeScript sources (esbuild strips the types; `npm run typecheck` checks them), with
 * each package resolved as the compiled tree resolves it (packagesAsDeployed).
 */
export async function bundleApp(root: string, outDir: string): Promise<AppBundle> {
  const functionsDir = resolve(root, 'src/functions');
  const production = new Set(
    planPackage(root).productionModules.map((path) => path.slice('node_modules/'.length)),
  );
  const modules = readdirSync(functionsDir)
    .filter((name) => name.endsWith('.ts'))
    .sort();
  const app = await build({
    ...common,
    stdin: {
      contents: modules.map((name) => `import './${name.replace(/\.ts$/, '')}';`).join('\n'),
      resolveDir: functionsDir,
      sourcefile: 'src/functions/index.ts',
      loader: 'ts',
    },
    outfile: resolve(outDir, 'dist/app.js'),
    sourcemap: true,
    // The map names the files; their text stays out of the package.
    sourcesContent: false,
    plugins: [lazyBundles, packagesAsDeployed(production, true)],
  });
  const lazy = await Promise.all(
    Object.entries(LAZY_BUNDLES).map(([name, file]) =>
      // The app imports it (`import()`), so its ES module build, as Node loads it for the tree.
      build({
        ...common,
        stdin: { contents: `export * from '${name}';`, resolveDir: root, loader: 'js' },
        outfile: resolve(outDir, 'dist', file),
        plugins: [packagesAsDeployed(production, false)],
      }),
    ),
  );

  // The map's sources are relative to the bundle's folder; the app's are shown as `../src/...` there
  // (in the package: <wwwroot>/src/kernel/boundText.ts:12), the path they have in the repository.
  const mapFile = resolve(outDir, 'dist/app.js.map');
  const inSrc = (source: string) => relative(resolve(root, 'src'), resolve(outDir, 'dist', source));
  const isApp = (source: string) => !/^\.\.([\\/]|$)/.test(inSrc(source)) && !source.includes('://');
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as Parameters<typeof appSourceMap>[0];
  writeFileSync(
    mapFile,
    JSON.stringify(appSourceMap(map, isApp, (source) => `../src/${inSrc(source).replace(/\\/g, '/')}`)),
  );
  writeFileSync(
    resolve(outDir, 'dist/main.js'),
    "'use strict';\n// Written by scripts/package/bundleApp.ts.\nprocess.setSourceMapsEnabled(true);\nrequire('./app.js');\n",
  );
  const inputs = new Set(
    [app, ...lazy].flatMap((result) =>
      Object.keys(result.metafile?.inputs ?? {}).filter((input) => !input.startsWith('<stdin>')),
    ),
  );
  return {
    files: [
      'dist/main.js',
      'dist/app.js',
      'dist/app.js.map',
      ...Object.values(LAZY_BUNDLES).map((f) => `dist/${f}`),
    ],
    inputs: [...inputs].map((input) => relative(root, resolve(root, input)).replace(/\\/g, '/')).sort(),
  };
}
