import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { type AppBundle, bundleApp } from './bundleApp';

/** The staged package.json: what the host reads (the entry, the Node version), and no dependencies. */
function packageManifest(root: string): string {
  const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  const staged = {
    name: manifest.name,
    version: manifest.version,
    private: true,
    license: manifest.license,
    main: 'dist/main.js',
    engines: manifest.engines,
  };
  return `${JSON.stringify(staged, null, 2)}\n`;
}

/**
 * Stages the deployment package in `outDir` (emptied first): host.json, a package.json whose `main`
 * is the bundle's entry, and the bundle (scripts/package/bundleApp.ts), which holds the production
 * dependencies, so no node_modules ships. Built from the project's sources and its installed
 * node_modules: no network, the same versions the tests ran.
 */
export async function stagePackage(
  root: string,
  outDir: string,
): Promise<AppBundle & { readonly copied: readonly string[] }> {
  rmSync(outDir, { recursive: true, force: true });
  try {
    mkdirSync(resolve(outDir, 'dist'), { recursive: true });
    copyFileSync(resolve(root, 'host.json'), resolve(outDir, 'host.json'));
    writeFileSync(resolve(outDir, 'package.json'), packageManifest(root));
    const bundle = await bundleApp(root, outDir);
    // azd applies its default exclusions (node_modules for Node.js) when a package has no .funcignore.
    writeFileSync(
      resolve(outDir, '.funcignore'),
      '# Staged by scripts/stage-package.ts: everything here ships.\n',
    );
    return { ...bundle, copied: ['.funcignore', 'host.json', 'package.json', ...bundle.files] };
  } catch (error) {
    // No half-staged folder is left for a deploy to zip: it would be a package without its app.
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
}
