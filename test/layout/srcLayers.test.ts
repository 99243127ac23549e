import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { srcLayerRules, srcLayers } from '../../eslint.config.mjs';

// The folder order of src/ is enforced by lint (eslint.config.mjs); these tests keep that rule honest:
// it must refuse an import that runs back up, allow one that runs down, and know every folder.
const lint = (filename: string, code: string) =>
  new Linter({ configType: 'flat' })
    .verify(code, [{ files: ['**/*.ts'], languageOptions: { sourceType: 'module' } }, ...srcLayerRules()], {
      filename,
    })
    .map((m) => m.message);

describe('the folder order of src/', () => {
  it('refuses an import of a folder above the importing one', () => {
    const messages = lint('src/kernel/scratch.ts', "import { x } from '../breaker/breakerStore';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('src/kernel/ imports only the folders below it');
  });

  it('refuses it from a nested folder too', () => {
    const messages = lint(
      'src/notify/webhook/scratch.ts',
      "import { x } from '../../orchestration/onTripped';\n",
    );
    expect(messages).toHaveLength(1);
  });

  it('allows imports of folders below, of its own folder and of packages', () => {
    const code = [
      "import { a } from '../breaker/breakerStore';",
      "import { b } from '../kernel/clock';",
      "import { c } from './batchProcessor';",
      "import { d } from 'zod';",
      '',
    ].join('\n');
    expect(lint('src/processing/scratch.ts', code)).toEqual([]);
  });

  it('still keeps test/ and sim/ out of src/', () => {
    expect(lint('src/kernel/scratch.ts', "import { x } from '../../sim/world/world';\n")).toHaveLength(1);
  });

  it('lists every folder of src/, and only those', () => {
    const folders = readdirSync(join(import.meta.dirname, '../../src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...srcLayers].sort()).toEqual(folders.sort());
  });
});
