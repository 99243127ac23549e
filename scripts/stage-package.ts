/**
 * Stages the deployment package in .package/ (what `azd deploy` zips, azure.yaml `dist`): host.json,
 * package.json and the app bundled with its production dependencies (scripts/package/bundleApp.ts):
 *   npm run stage-package            (azure.yaml's prepackage hook runs it after the type check)
 */
import { resolve } from 'node:path';

import { stagePackage } from './package/stagePackage';

const root = resolve(import.meta.dirname, '..');
stagePackage(root, resolve(root, '.package')).then(
  ({ copied, inputs }) => {
    const packages = new Set(
      inputs.flatMap((input) => /^node_modules\/((@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []),
    );
    console.log(`.package staged: ${copied.length} files, the app and ${packages.size} packages bundled`);
  },
  (error: unknown) => {
    console.error(`cannot stage the package: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
