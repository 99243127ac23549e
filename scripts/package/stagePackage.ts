import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { planPackage } from './planPackage';

/**
 * Copies the planned package into `outDir` (emptied first) from the project's own build and its
 * installed node_modules: no network, and the same versions the tests ran. A production dependency
 * that the lock lists as optional and this machine did not install (another platform's binary) is
 * skipped; any other missing one is an error, since the app would fail to load without it.
 */
export function stagePackage(root: string, outDir: string): { readonly copied: readonly string[] } {
  const plan = planPackage(root);
  const missing = plan.entries.filter((entry) => !existsSync(resolve(root, entry)));
  if (missing.length > 0)
    throw new Error(`cannot stage the package: ${missing.join(', ')} missing (run npm run build first)`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const copied: string[] = [];
  for (const path of [...plan.entries, ...plan.productionModules]) {
    const from = resolve(root, path);
    if (!existsSync(from)) {
      if (plan.optional.includes(path)) continue;
      throw new Error(`cannot stage the package: ${path} is a production dependency but is not installed`);
    }
    mkdirSync(dirname(resolve(outDir, path)), { recursive: true });
    cpSync(from, resolve(outDir, path), { recursive: true, dereference: true });
    copied.push(path);
  }
  // azd applies its default exclusions (node_modules for Node.js) when a package has no .funcignore.
  writeFileSync(
    resolve(outDir, '.funcignore'),
    '# Staged by scripts/stage-package.ts: everything here ships; node_modules holds production dependencies only.\n',
  );
  return { copied };
}
