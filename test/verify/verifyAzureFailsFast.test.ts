import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { AZD_VALUES } from '../../verify/azure/azdEnvironment';

const repo = resolve(import.meta.dirname, '../..');
const tsx = pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href;

/** A project folder as azd leaves it, with `values` in `.azure/<env>/.env` (none: no .azure at all). */
function project(values?: Record<string, string>, name = 'sandbox'): string {
  const dir = mkdtempSync(join(tmpdir(), 'bw-verify-'));
  if (values === undefined) return dir;
  mkdirSync(join(dir, '.azure', name), { recursive: true });
  writeFileSync(join(dir, '.azure', 'config.json'), JSON.stringify({ version: 1, defaultEnvironment: name }));
  writeFileSync(
    join(dir, '.azure', name, '.env'),
    Object.entries(values)
      .map(([k, v]) => `${k}="${v}"`)
      .join('\n'),
  );
  return dir;
}

const complete = Object.fromEntries(AZD_VALUES.map((k) => [k, `value-of-${k.toLowerCase()}`]));

/** `npm run verify` from that folder, as a user would run it after `azd up`; the wall time it took. */
function verify(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', tsx, join(repo, 'verify/run.ts'), ...args], {
    cwd,
    // No Azure here: nothing to sign in with but the environment, which holds no service principal.
    env: { PATH: process.env.PATH, HOME: cwd, AZURE_TOKEN_CREDENTIALS: 'EnvironmentCredential', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((done) => {
    child.on('exit', (code) => {
      done({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

describe('npm run verify -- --target azure without what it needs', () => {
  it('with no azd environment: one line saying so, within seconds, exit 1', async () => {
    const r = await verify(project(), ['--target', 'azure']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'verify: no azd environment selected (no --env, no AZURE_ENV_NAME, no defaultEnvironment in .azure/config.json): run `azd up` first, or pass --target local',
    ]);
    expect(r.ms).toBeLessThan(10_000);
  });

  it('with an azd environment that lacks outputs: names them', async () => {
    const { AZURE_KEY_VAULT_NAME: _kv, SERVICE_API_URI: _uri, ...partial } = complete;
    const r = await verify(project(partial), []);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'verify: azd environment "sandbox" lacks SERVICE_API_URI, AZURE_KEY_VAULT_NAME: run `azd up` (or `azd env refresh`)',
    ]);
  });

  it('with --env naming an environment azd does not have', async () => {
    const r = await verify(project(complete), ['--env', 'prod']);
    expect(r.stderr.trim()).toBe(
      'verify: azd environment "prod" has no .azure/prod/.env: run `azd up` first, or pass --target local',
    );
  });

  it('with an azd environment but no credential: one line, within seconds, exit 1, nothing changed', async () => {
    const r = await verify(project(complete), [], { AZURE_ENV_NAME: '' });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'verify: no Azure credential (EnvironmentCredential is unavailable): sign in with `az login` or `azd auth login`',
    );
    expect(r.stdout).toBe('');
    expect(r.ms).toBeLessThan(10_000);
  });
});
