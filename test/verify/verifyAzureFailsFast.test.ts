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

/** Values as `azd up` writes them for one sandbox (valid names; nothing is reached: no credential). */
const complete: Record<string, string> = {
  AZURE_SUBSCRIPTION_ID: '00000000-1111-2222-3333-444444444444',
  AZURE_RESOURCE_GROUP: 'rg-sandbox',
  AZURE_FUNCTION_APP_NAME: 'func-api-abc123',
  SERVICE_API_URI: 'https://func-api-abc123.azurewebsites.net',
  EVENTHUB_FULLY_QUALIFIED_NAMESPACE: 'evhns-abc123.servicebus.windows.net',
  EVENTHUB_NAME: 'sensor-readings',
  EVENTHUB_CONSUMER_GROUP: 'breakwater',
  AZURE_STORAGE_ACCOUNT_NAME: 'stabc123',
  AZURE_KEY_VAULT_NAME: 'kv-abc123',
};
expect(Object.keys(complete).sort()).toEqual([...AZD_VALUES].sort());

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
  it('with no --target at all: refuses (exit 2), even with an azd environment selected', async () => {
    const r = await verify(project(complete), []);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'verify: --target is required: --target local (the simulator on this machine) or --target azure --env <name> (a sandbox deployment)',
    );
    expect(r.stdout).toBe('');
  });

  it('with --target azure but no --env: refuses rather than take the selected azd environment', async () => {
    const r = await verify(project(complete), ['--target', 'azure'], { AZURE_ENV_NAME: 'sandbox' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'verify: --target azure needs --env <name>: the azd environment of a sandbox (never the selected one by default)',
    );
  });

  it('with an azd environment that lacks outputs: names them', async () => {
    const { AZURE_KEY_VAULT_NAME: _kv, SERVICE_API_URI: _uri, ...partial } = complete;
    const r = await verify(project(partial), ['--target', 'azure', '--env', 'sandbox', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'verify: azd environment "sandbox" lacks SERVICE_API_URI, AZURE_KEY_VAULT_NAME: run `azd up` (or `azd env refresh`)',
    ]);
  });

  it('with --env naming an environment azd does not have', async () => {
    const r = await verify(project(complete), ['--target', 'azure', '--env', 'prod', '--yes']);
    expect(r.stderr.trim()).toBe(
      'verify: azd environment "prod" has no .azure/prod/.env: run `azd up` first, or pass --target local',
    );
  });

  it('with names in the file that would change the URL host: refuses before any sign-in or request, naming each', async () => {
    const values = { ...complete, AZURE_KEY_VAULT_NAME: 'host/x?', AZURE_STORAGE_ACCOUNT_NAME: 'host/x?' };
    const r = await verify(project(values), ['--target', 'azure', '--env', 'sandbox', '--yes']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^verify: azd environment "sandbox": AZURE_KEY_VAULT_NAME "host\/x\?" is not a Key Vault name .*; AZURE_STORAGE_ACCOUNT_NAME "host\/x\?" is not a storage account name .*Nothing was contacted/,
    );
    expect(r.stdout).toBe('');
  });

  it('with an azd environment but no credential: one line, within seconds, exit 1, nothing changed', async () => {
    const r = await verify(project(complete), ['--target', 'azure', '--env', 'sandbox', '--yes']);
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
