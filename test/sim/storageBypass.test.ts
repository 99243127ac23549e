import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';

import { CONFORMANCE_HEADER } from '../../sim/azure/storageConformance/conformanceProxy';

const root = path.resolve(__dirname, '../..');

/**
 * The files that may start Azurite. Only `startAzurite`, which puts the conformance layer in front; a
 * process that cannot be handed the layer's connection string would have to be named here, with why.
 */
const AZURITE_STARTERS = [path.join('sim', 'services', 'azurite.ts')];

/** Every TypeScript file of the folders that run the app or its tools. */
function sources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(full);
      return entry.name.endsWith('.ts') ? [full] : [];
    });
  return ['src', 'sim', 'test', 'demo', 'bench', 'verify', 'scripts'].flatMap((d) =>
    walk(path.join(root, d)),
  );
}

describe('nothing reaches Azurite around the storage conformance layer', () => {
  it('the storage the tests are handed answers through the layer, on each endpoint', async () => {
    const connection = inject('storageConnectionString');
    for (const service of ['Blob', 'Queue', 'Table']) {
      const endpoint = new RegExp(`${service}Endpoint=([^;]+)`).exec(connection)?.[1];
      expect(endpoint, `${service} endpoint`).toBeDefined();
      const response = await fetch(`${endpoint ?? ''}?comp=list`);
      await response.arrayBuffer();
      expect(response.headers.get(CONFORMANCE_HEADER), `${service} endpoint`).toBe('passed');
    }
  });

  it('only sim/services/azurite.ts starts Azurite, and it hands out the layer', () => {
    const self = path.relative(root, __filename);
    const starters = sources()
      .map((file) => path.relative(root, file))
      .filter((file) => file !== self)
      .filter((file) =>
        /azurite\/package\.json|dist\/src\/azurite|azurite-(?:blob|queue|table)\b/.test(
          readFileSync(path.join(root, file), 'utf8'),
        ),
      );
    expect(starters).toEqual(AZURITE_STARTERS);
    expect(readFileSync(path.join(root, 'sim/services/azurite.ts'), 'utf8')).toContain(
      'startConformanceProxy',
    );
  });
});
