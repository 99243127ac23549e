import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { type ArmServer, startArmServer } from '../../../sim/azure/armServer';
import { type KeyVaultServer, startKeyVaultServer } from '../../../sim/azure/keyVaultServer';
import { type ReceivedRequest, sendJson, startHttpsServer } from '../../../sim/net/httpsTestServer';
import { makeSelfSignedCert } from '../../../sim/net/selfSignedCert';
import type { AzureCloud } from '../../../verify/azure/azureCloud';
import { SIGNING_KEY_SECRET } from '../../../verify/azure/keyVaultSecret';

const repo = resolve(import.meta.dirname, '../../..');
const tsx = pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
export const SITE = 'func-api-abc123';
export const APP_HOST = `${SITE}.azurewebsites.localhost`;
export const FUNCTION_KEY = 'stand-in-function-key';

/** Values as `azd up` writes them; SERVICE_API_URI is filled in with the app stand-in's port. */
const AZD = {
  AZURE_SUBSCRIPTION_ID: '00000000-1111-2222-3333-444444444444',
  AZURE_RESOURCE_GROUP: 'rg-sandbox',
  AZURE_FUNCTION_APP_NAME: SITE,
  EVENTHUB_FULLY_QUALIFIED_NAMESPACE: 'evhns-abc123.servicebus.windows.net',
  EVENTHUB_NAME: 'sensor-readings',
  EVENTHUB_CONSUMER_GROUP: 'breakwater',
  AZURE_STORAGE_ACCOUNT_NAME: 'stabc123',
  AZURE_KEY_VAULT_NAME: 'kv-abc123',
};

export interface StandIns {
  readonly arm: ArmServer;
  readonly vault: KeyVaultServer;
  /** Requests to the app and storage stand-in, with the host they were sent to. */
  readonly appRequests: (ReceivedRequest & { readonly host: string })[];
  readonly cloud: AzureCloud;
  /** The app's URL as ARM reports it. */
  readonly appUrl: string;
  /** A project folder with `.azure/sandbox/.env` (overrides on top of the right values). */
  project(overrides?: Record<string, string>): string;
  close(): Promise<void>;
}

/**
 * Azure for `--target azure`, on loopback: ARM (site, host keys, app settings) and Key Vault from sim/,
 * and one server for the app (a CLOSED breaker whose fault endpoint is not up yet: an app restarting
 * after the settings change) and blob storage (no checkpoints yet). The app has opted in.
 */
export async function startStandIns(settings: Record<string, string> = {}): Promise<StandIns> {
  const cert = makeSelfSignedCert([
    '*.azurewebsites.localhost',
    '*.vault.localhost',
    '*.blob.localhost',
    '*.table.localhost',
  ]);
  const certDir = mkdtempSync(join(tmpdir(), 'bw-standin-ca-'));
  writeFileSync(join(certDir, 'ca.pem'), cert.cert);
  const arm = await startArmServer(cert, {
    subscriptionId: AZD.AZURE_SUBSCRIPTION_ID,
    resourceGroup: AZD.AZURE_RESOURCE_GROUP,
    siteName: SITE,
    defaultHostName: APP_HOST,
    functionKey: FUNCTION_KEY,
  });
  arm.setSettings({ SINK: 'table', BREAKWATER_VERIFY_ALLOWED: 'true', ...settings });
  const vault = await startKeyVaultServer(cert, { [SIGNING_KEY_SECRET]: 'k'.repeat(44) });
  const appRequests: StandIns['appRequests'] = [];
  const app = await startHttpsServer(cert, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    appRequests.push({ ...req, host });
    if (host === APP_HOST && req.path === '/api/breaker/status') {
      sendJson(res, 200, { state: 'CLOSED', tripId: null, phase: null, held: { known: true, total: 0 } });
    } else if (host.endsWith('.blob.localhost') && req.query.get('comp') === 'list') {
      res.writeHead(200, { 'content-type': 'application/xml', 'x-ms-version': '2025-01-05' });
      res.end(
        `<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="https://${host}/" ContainerName="${req.path.slice(1)}"><Blobs /><NextMarker /></EnumerationResults>`,
      );
    } else sendJson(res, 404, { error: 'not here' });
  });
  const port = (url: string) => Number(new URL(url).port);
  const cloud: AzureCloud = {
    armEndpoint: arm.url,
    keyVault: { suffix: '.vault.localhost', port: port(vault.url) },
    blob: { suffix: '.blob.localhost', port: port(app.url) },
    table: { suffix: '.table.localhost', port: port(app.url) },
    app: { suffix: '.azurewebsites.localhost', port: port(app.url) },
  };
  const appUrl = `https://${APP_HOST}:${port(app.url)}`;
  return {
    arm,
    vault,
    appRequests,
    cloud,
    appUrl,
    project(overrides = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'bw-verify-azure-'));
      mkdirSync(join(dir, '.azure', 'sandbox'), { recursive: true });
      writeFileSync(join(dir, 'ca.pem'), cert.cert);
      const values = { ...AZD, SERVICE_API_URI: appUrl, ...overrides };
      writeFileSync(
        join(dir, '.azure', 'sandbox', '.env'),
        Object.entries(values)
          .map(([k, v]) => `${k}="${v}"`)
          .join('\n'),
      );
      return dir;
    },
    close: async () => {
      await Promise.all([arm.close(), vault.close(), app.close()]);
    },
  };
}

export interface VerifyChild {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves once `text` has appeared on stdout (or stderr), with everything seen so far. */
  readonly seen: (text: string, stream?: 'stdout' | 'stderr') => Promise<string>;
  readonly exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `npm run verify -- …args` from `cwd`, against the stand-ins (test/verify/support/verifyAgainstStandIns.ts). */
export function spawnVerify(s: StandIns, cwd: string, args: readonly string[]): VerifyChild {
  const child = spawn(
    process.execPath,
    ['--import', tsx, join(repo, 'test/verify/support/verifyAgainstStandIns.ts'), ...args],
    {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: cwd,
        NODE_EXTRA_CA_CERTS: join(cwd, 'ca.pem'),
        VERIFY_STAND_IN_CLOUD: JSON.stringify(s.cloud),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  child.stdin.end();
  const text = { stdout: '', stderr: '' };
  const waiters: { text: string; stream: 'stdout' | 'stderr'; done: (all: string) => void }[] = [];
  const check = () => {
    for (const w of [...waiters])
      if (text[w.stream].includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done(text[w.stream]);
      }
  };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].on('data', (c: Buffer) => {
      text[stream] += c.toString();
      check();
    });
    child[stream].on('error', () => undefined);
  }
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    child.on('exit', (code) => {
      done({ code, ...text });
    });
  });
  const seen = (t: string, stream: 'stdout' | 'stderr' = 'stdout') =>
    new Promise<string>((done, fail) => {
      waiters.push({ text: t, stream, done });
      check();
      void exited.then(() => {
        if (waiters.some((w) => w.text === t))
          fail(new Error(`exited before "${t}" on ${stream}:\n${text.stdout}\n${text.stderr}`));
      });
    });
  return { child, seen, exited };
}
