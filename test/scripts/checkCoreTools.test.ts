import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Core Tools cannot be installed here: a stand-in `func` on a PATH of its own answers --version.
const dir = mkdtempSync(join(tmpdir(), 'func-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const node = dirname(process.execPath);
const tsx = join('node_modules', '.bin', 'tsx');

function run(path: string) {
  return spawnSync(tsx, ['scripts/check-core-tools.ts'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: path },
  });
}

function fakeFunc(version: string): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  writeFileSync(join(bin, 'func'), `#!/bin/sh\necho ${version}\n`);
  chmodSync(join(bin, 'func'), 0o755);
  return bin;
}

describe('npm start without Core Tools', () => {
  it('says what to install and exits non-zero when func is missing', () => {
    const result = run(node);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Azure Functions Core Tools (`func`) was not found on the PATH');
    expect(result.stderr).toContain('npm install -g azure-functions-core-tools@4');
  }, 30_000);

  it('refuses Core Tools of another major version', () => {
    const result = run(`${fakeFunc('3.0.3904')}:${node}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('found Core Tools 3.0.3904, but this app needs version 4');
  }, 30_000);

  it('lets npm start go on with Core Tools 4', () => {
    const result = run(`${fakeFunc('4.0.7030')}:${node}`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 30_000);
});
