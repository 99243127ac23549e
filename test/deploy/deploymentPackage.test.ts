import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { planPackage } from '../../scripts/package/planPackage';
import { repoRoot } from './armTemplate';

const manifest = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as {
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
};

describe('the production dependencies (what the deployment package may hold)', () => {
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

  it('counts every production dependency as production', () => {
    for (const name of Object.keys(manifest.dependencies))
      expect(plan.productionModules).toContain(`node_modules/${name}`);
  });

  it('is the folder azure.yaml deploys, staged by its prepackage hook after the type check', () => {
    const azure = parseYaml(readFileSync(resolve(repoRoot, 'azure.yaml'), 'utf8')) as {
      services: { api: { dist?: string; hooks?: { prepackage?: { run?: string } } } };
    };
    expect(azure.services.api.dist).toBe('.package');
    expect(azure.services.api.hooks?.prepackage?.run).toMatch(/npm run typecheck && npm run stage-package/);
  });
});
