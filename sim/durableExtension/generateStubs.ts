/**
 * Loads the app the way a worker does (through the simulator's functions core) and writes the host's
 * forwarding stubs for its orchestrators and activities: `node --import tsx sim/durableExtension/generateStubs.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { fakeCore } from '../host/fakeFunctionsCore';
import { appFunctionStubs, durableFunctionsOf } from './appFunctionStubs';
import { loadAppForExtension } from './extensionApp';

async function main(): Promise<void> {
  // Registering connects to nothing: any well-formed settings will do.
  await loadAppForExtension({
    storageConnectionString: 'UseDevelopmentStorage=true',
    smtpPort: 25,
    publicBaseUrl: 'http://127.0.0.1',
    armUrl: 'https://127.0.0.1',
    ca: '',
  });
  const functions = durableFunctionsOf(fakeCore.registry.values());
  const out = path.join(__dirname, 'host', 'Generated', 'AppFunctions.g.cs');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, appFunctionStubs(functions));
  process.stdout.write(
    `stubs for ${functions.map((f) => `${f.name} (${f.kind})`).join(', ')} -> ${path.relative(process.cwd(), out)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
