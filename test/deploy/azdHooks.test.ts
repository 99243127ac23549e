import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { repoRoot } from './armTemplate';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'azd-hooks-'));
  // An `azd` that records `azd env set NAME VALUE` the way the real one stores it.
  const fake = join(dir, 'azd');
  writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$*" >> "${join(dir, 'calls')}"\n`);
  chmodSync(fake, 0o755);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function hook(name: string, env: Record<string, string>) {
  try {
    const stdout = execFileSync('sh', [resolve(repoRoot, `scripts/azd/${name}.sh`)], {
      env: { PATH: `${dir}:${process.env.PATH ?? ''}`, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}
const calls = () => {
  try {
    return readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
  } catch {
    return [];
  }
};

describe('azd hooks', () => {
  it('are the hooks azure.yaml runs around provisioning', () => {
    const azure = parseYaml(readFileSync(resolve(repoRoot, 'azure.yaml'), 'utf8')) as {
      hooks: Record<string, { run: string }>;
    };
    expect(azure.hooks.preprovision?.run).toBe('sh scripts/azd/preprovision.sh');
    expect(azure.hooks.postprovision?.run).toBe('sh scripts/azd/postprovision.sh');
  });

  it('preprovision generates a signing key when the environment has none (48 random bytes)', () => {
    const run = hook('preprovision', { APPROVERS: 'oncall@example.com' });
    expect(run.status).toBe(0);
    const [call, ...rest] = calls();
    expect(rest).toEqual([]);
    const key = /^env set APPROVAL_SIGNING_KEY (\S+)$/.exec(call ?? '')?.[1] ?? '';
    expect(Buffer.from(key, 'base64')).toHaveLength(48);
    expect(run.stdout).toContain('generated one');
  });

  it('preprovision keeps a key that is set (pending links stay valid)', () => {
    const run = hook('preprovision', {
      APPROVERS: 'oncall@example.com',
      APPROVAL_SIGNING_KEY: 'existing-key-0123456789abcdef0123456789',
    });
    expect(run.status).toBe(0);
    expect(calls()).toEqual([]);
  });

  it('preprovision stops with the command to run when APPROVERS is missing', () => {
    const run = hook('preprovision', { APPROVAL_SIGNING_KEY: 'existing-key-0123456789abcdef0123456789' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('APPROVERS is not set: run  azd env set APPROVERS');
  });

  it('postprovision prints the dashboard, status and approval URLs and how to get the key', () => {
    const run = hook('postprovision', {
      SERVICE_API_URI: 'https://func-api-abc.azurewebsites.net',
      AZURE_RESOURCE_GROUP: 'rg-dev',
      AZURE_FUNCTION_APP_NAME: 'func-api-abc',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      'dashboard      https://func-api-abc.azurewebsites.net/api/breaker/dashboard',
    );
    expect(run.stdout).toContain('status         https://func-api-abc.azurewebsites.net/api/breaker/status');
    expect(run.stdout).toContain('approval page  https://func-api-abc.azurewebsites.net/api/approve');
    expect(run.stdout).toContain('az functionapp keys list -g rg-dev -n func-api-abc');
  });
});
