/**
 * Stages the deployment package in .package/ (what `azd deploy` zips, azure.yaml `dist`): host.json,
 * package.json, the lock, dist/src and the production dependencies only. Run after `npm run build`:
 *   npm run stage-package            (azure.yaml's prepackage hook runs it)
 */
import { resolve } from 'node:path';

import { stagePackage } from './package/stagePackage';

const root = resolve(import.meta.dirname, '..');
const { copied } = stagePackage(root, resolve(root, '.package'));
const modules = copied.filter((path) => path.startsWith('node_modules/')).length;
console.log(`.package staged: ${copied.length - modules} app entries, ${modules} production packages`);
