import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { planPackage } from '../../scripts/package/planPackage';
import { stagePackage } from '../../scripts/package/stagePackage';
import { repoRoot } from './armTemplate';

const manifest = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as {
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
};

describe('the deployment package (what azd deploy zips)', () => {
  const plan = planPackage(repoRoot);

  it('holds no dev-only dependency: the test runner, compiler, linters, Azurite, the local Node', () => {
    const lock = JSON.parse(readFileSync(resolve(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.keys(manifest.devDependencies).filter(
      (name) => lock.packages[`node_modules/${name}`]?.dev === true,
    );
    expect(devOnly).toEqual(expect.arrayContaining(['vitest', 'typescript', 'azurite', 'eslint', 'node']));
    expect(plan.productionModules.filter((m) => devOnly.includes(m.slice('node_modules/'.length)))).toEqual(
      [],
    );
  });

  it('holds every production dependency, the compiled app and host.json, and no sources or tests', () => {
    for (const name of Object.keys(manifest.dependencies))
      expect(plan.productionModules).toContain(`node_modules/${name}`);
    expect(plan.entries).toEqual(['host.json', 'package.json', 'package-lock.json', 'dist/src']);
  });

  it('is the folder azure.yaml deploys, staged by its prepackage hook after the build', () => {
    const azure = parseYaml(readFileSync(resolve(repoRoot, 'azure.yaml'), 'utf8')) as {
      services: { api: { dist?: string; hooks?: { prepackage?: { run?: string } } } };
    };
    expect(azure.services.api.dist).toBe('.package');
    expect(azure.services.api.hooks?.prepackage?.run).toMatch(/npm run build && npm run stage-package/);
  });
});

describe('stagePackage', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** A project with one production, one dev-only and one optional (not installed) dependency. */
  function project(installed: readonly string[]): string {
    dir = mkdtempSync(join(tmpdir(), 'stage-package-'));
    const root = join(dir, 'project');
    mkdirSync(join(root, 'dist/src/functions'), { recursive: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'dist/src/functions/app.js'), '');
    writeFileSync(join(root, 'src/app.ts'), '');
    writeFileSync(join(root, 'host.json'), '{}');
    writeFileSync(join(root, 'package.json'), '{}');
    writeFileSync(
      join(root, 'package-lock.json'),
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': {},
          'node_modules/@azure/functions': {},
          'node_modules/@azure/functions/node_modules/inner': {},
          'node_modules/vitest': { dev: true },
          'node_modules/native-linux-arm64': { optional: true },
        },
      }),
    );
    for (const name of installed) {
      mkdirSync(join(root, 'node_modules', name), { recursive: true });
      writeFileSync(join(root, 'node_modules', name, 'index.js'), '');
    }
    return root;
  }

  it('copies the app and the production modules only, with a .funcignore so azd keeps node_modules', () => {
    const root = project(['@azure/functions', '@azure/functions/node_modules/inner', 'vitest']);
    const out = join(dir ?? '', 'out');
    stagePackage(root, out);
    expect(readdirSync(out).sort()).toEqual(
      ['.funcignore', 'dist', 'host.json', 'node_modules', 'package-lock.json', 'package.json'].sort(),
    );
    expect(readdirSync(join(out, 'node_modules'))).toEqual(['@azure']);
    expect(readdirSync(join(out, 'node_modules/@azure/functions/node_modules'))).toEqual(['inner']);
    expect(readFileSync(join(out, '.funcignore'), 'utf8')).not.toMatch(/^node_modules/m);
  });

  it('refuses to stage without the build, or with a production dependency missing', () => {
    const root = project([]);
    expect(() => stagePackage(root, join(dir ?? '', 'out'))).toThrow(
      /@azure\/functions is a production dependency but is not installed/,
    );
    rmSync(join(root, 'dist'), { recursive: true });
    expect(() => stagePackage(root, join(dir ?? '', 'out'))).toThrow(/dist\/src missing \(run npm run build/);
  });
});
