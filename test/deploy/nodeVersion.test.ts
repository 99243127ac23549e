import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { isObject, type Json, readMainTemplate, repoRoot } from './armTemplate';

/** The one decision: the Node major that Flex Consumption runs in infra/ is the one everything uses. */
const read = (file: string) => readFileSync(resolve(repoRoot, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

function nodeRuntimeVersions(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(nodeRuntimeVersions);
  if (!isObject(value)) return [];
  const here = value.name === 'node' && typeof value.version === 'string' ? [value.version] : [];
  return [...here, ...Object.values(value).flatMap(nodeRuntimeVersions)];
}

describe('one Node version, the one deployed', () => {
  const deployed = nodeRuntimeVersions(readMainTemplate());

  it('infra/ deploys exactly one Node major on Flex Consumption', () => {
    expect(new Set(deployed)).toEqual(new Set(['22']));
  });

  it('engines, .nvmrc and the node dev dependency name the same major', () => {
    const major = deployed[0];
    expect(pkg.engines.node).toBe(`${major}.x`);
    expect(read('.nvmrc').trim()).toBe(major);
    expect(pkg.devDependencies.node?.split('.')[0]).toBe(major);
  });

  it('the tests run on it, whatever Node the machine has (npm scripts put node_modules/.bin first)', () => {
    expect(process.versions.node.split('.')[0]).toBe(deployed[0]);
  });
});
