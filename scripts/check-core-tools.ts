/**
 * `npm start` runs this first: the Functions host comes from Azure Functions Core Tools 4 (`func`),
 * which npm does not install. Without it, say what to install instead of failing with `func: not found`.
 */
import { spawnSync } from 'node:child_process';

const INSTALL = [
  'Install Azure Functions Core Tools 4, then run `npm start` again:',
  '  npm install -g azure-functions-core-tools@4 --unsafe-perm true',
  '  (or a package for your OS: https://learn.microsoft.com/azure/azure-functions/functions-run-local)',
  'Without Core Tools and Docker, `npm run demo` runs the whole breaker loop on this machine.',
].join('\n');

const probe = spawnSync('func', ['--version'], { encoding: 'utf8' });
const version = probe.error === undefined && probe.status === 0 ? probe.stdout.trim() : undefined;
if (version === undefined) {
  console.error(`npm start: Azure Functions Core Tools (\`func\`) was not found on the PATH.\n${INSTALL}`);
  process.exit(1);
}
if (!/^4\./.test(version)) {
  console.error(`npm start: found Core Tools ${version}, but this app needs version 4.\n${INSTALL}`);
  process.exit(1);
}
