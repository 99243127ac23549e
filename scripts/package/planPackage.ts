import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** What the deployment package holds besides node_modules: the compiled app and the host's files. */
export const APP_ENTRIES = ['host.json', 'package.json', 'package-lock.json', 'dist/src'] as const;

interface LockEntry {
  readonly dev?: boolean;
  readonly devOptional?: boolean;
  readonly optional?: boolean;
  readonly link?: boolean;
}

export interface PackagePlan {
  /** Paths relative to the project root, copied as they are (directories whole). */
  readonly entries: readonly string[];
  /** Top-level `node_modules/<name>` directories of production dependencies (nested ones come along). */
  readonly productionModules: readonly string[];
  /** Production modules the lock marks optional (a platform's binary): absent on other machines. */
  readonly optional: readonly string[];
}

/**
 * The package: the app's own entries and the production dependencies that `npm ci --omit=dev` would
 * install, read from package-lock.json (an entry marked `dev` is needed only by devDependencies). A
 * top-level directory is taken whole: everything nested under a production package is production too.
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
  return {
    entries: [...APP_ENTRIES],
    productionModules: production.map(([path]) => path).sort(),
    optional: production.filter(([, entry]) => entry.optional === true).map(([path]) => path),
  };
}

/** `node_modules/x` or `node_modules/@scope/x`, not a package nested inside another one. */
function isTopLevel(path: string): boolean {
  return /^node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(path);
}
