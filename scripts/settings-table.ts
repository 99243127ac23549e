/**
 * Prints the configuration reference table generated from src/config/settings.ts.
 *   npm run settings-table                  print the markdown table
 *   npm run settings-table -- --write       refresh it inside docs/configuration.md (between its markers)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';

import { renderSettingsTable, replaceSettingsTable } from './docs/renderSettingsTable';

async function main(args: readonly string[]): Promise<void> {
  const table = renderSettingsTable();
  if (!args.includes('--write')) {
    console.log(table);
    return;
  }
  // npm runs scripts from the package root.
  const path = resolve('docs', 'configuration.md');
  const updated = replaceSettingsTable(readFileSync(path, 'utf8'), table);
  const options = (await resolveConfig(path)) ?? {};
  writeFileSync(path, await format(updated, { ...options, filepath: path }));
  console.log(`updated ${path}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`settings-table: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
