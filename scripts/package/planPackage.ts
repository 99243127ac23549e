import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface LockEntry {
  readonly dev?: boolean;
  readonly devOptional?: boolean;
}

export interface PackagePlan {
  /** Top-level `node_modules/<name>` directories of production dependencies (nested ones count as theirs). */
  readonly productionModules: readonly string[];
}

/**
 * The production dependencies, those `npm ci --omit=dev` would install, read from package-lock.json
 * (an entry marked `dev` is needed only by devDependencies): the only packages the bundle may hold
 * (scripts/package/bundleApp.ts). Everything nested under a production package is production too.
 */
export function planPackage(root: string): PackagePlan {
  const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as {
    readonly lockfileVersion?: number;
    readonly packages?: Record<string, LockEntry>;
  };
  if ((lock.lockfileVersion ?? 0) < 2 || lock.packages === undefined)
    throw new Error('package-lock.json has no "packages" map (lockfileVersion 2 or later is needed)');
  const production = Object.entries(lock.packages).filter(
    ([path, entry]) => isTopLevel(path) && entry.dev !== true && entry.devOptional !== true,
  );
  return { productionModules: production.map(([path]) => path).sort() };
}

/** `node_modules/x` or `node_modules/@scope/x`, not a package nested inside another one. */
function isTopLevel(path: string): boolean {
  return /^node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(path);
}
