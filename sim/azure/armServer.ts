import type { ServerResponse } from 'node:http';

import { type ReceivedRequest, sendJson, startHttpsServer } from '../net/httpsTestServer';
import type { SelfSignedCert } from '../net/selfSignedCert';

export type ArmOperation = 'list' | 'update' | 'site' | 'hostKeys';

export interface ArmServerSite {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly siteName: string;
  /** The site's `properties.defaultHostName` (default `<siteName>.azurewebsites.net`). */
  readonly defaultHostName?: string;
  /** The host's default function key, answered by `host/default/listkeys` (default: a fixed test key). */
  readonly functionKey?: string;
}

export interface ArmServer {
  readonly url: string;
  /** Every request, in order, for assertions on method, path, api-version and auth. */
  readonly requests: ReceivedRequest[];
  settings(): Record<string, string>;
  setSettings(settings: Record<string, string>): void;
  /** The next `times` calls of `operation` answer `status` with an ARM error body. */
  failNext(operation: ArmOperation, status: number, times?: number): void;
  /** Drops the failures `failNext` queued and that have not happened yet: ARM recovers. */
  clearFailures(): void;
  /** The next call of `operation` waits for `release()` before it is handled (a test orders events). */
  holdNext(operation: ArmOperation): { release(): void };
  /** Runs after an update is applied, before the next request: simulates another writer. */
  afterUpdate(hook: ((settings: Record<string, string>) => Record<string, string>) | undefined): void;
  close(): Promise<void>;
}

/**
 * An ARM-shaped HTTPS server for one site, shaped as the Microsoft.Web REST API answers:
 * `GET .../providers/Microsoft.Web/sites/{site}` (the site, with `properties.defaultHostName`),
 * `POST .../sites/{site}/host/default/listkeys` (the host keys: `masterKey`, `functionKeys.default`),
 * `POST .../config/appsettings/list` and `PUT .../config/appsettings` (replaces the whole set), all
 * requiring an api-version and a bearer token.
 */
export async function startArmServer(cert: SelfSignedCert, site: ArmServerSite): Promise<ArmServer> {
  const sitePath =
    `/subscriptions/${site.subscriptionId}/resourceGroups/${site.resourceGroup}` +
    `/providers/Microsoft.Web/sites/${site.siteName}`;
  const base = `${sitePath}/config/appsettings`;
  const defaultHostName = site.defaultHostName ?? `${site.siteName}.azurewebsites.net`;
  const routes: Record<string, ArmOperation> = {
    [`POST ${base}/list`.toLowerCase()]: 'list',
    [`PUT ${base}`.toLowerCase()]: 'update',
    [`GET ${sitePath}`.toLowerCase()]: 'site',
    [`POST ${sitePath}/host/default/listkeys`.toLowerCase()]: 'hostKeys',
  };
  let current: Record<string, string> = {};
  let hook: ((settings: Record<string, string>) => Record<string, string>) | undefined;
  const failures: { operation: ArmOperation; status: number }[] = [];
  const holds: { operation: ArmOperation; released: Promise<void> }[] = [];
  const requests: ReceivedRequest[] = [];

  const resource = () => ({
    id: base,
    name: 'appsettings',
    type: 'Microsoft.Web/sites/config',
    properties: current,
  });

  const server = await startHttpsServer(cert, (req, res) => {
    requests.push(req);
    const operation: ArmOperation | undefined = routes[`${req.method} ${req.path}`.toLowerCase()];
    const hold = holds.findIndex((h) => h.operation === operation);
    if (hold >= 0) {
      const { released } = holds.splice(hold, 1)[0] ?? { released: Promise.resolve() };
      void released.then(() => {
        handle(req, res, operation);
      });
      return;
    }
    handle(req, res, operation);
  });

  function handle(req: ReceivedRequest, res: ServerResponse, operation: ArmOperation | undefined): void {
    if (operation === undefined) {
      sendJson(res, 404, { error: { code: 'NotFound', message: `no route ${req.method} ${req.path}` } });
      return;
    }
    if (!req.query.get('api-version')) {
      sendJson(res, 400, {
        error: { code: 'MissingApiVersionParameter', message: 'api-version is required' },
      });
      return;
    }
    if (!req.headers.authorization?.startsWith('Bearer ')) {
      sendJson(res, 401, { error: { code: 'AuthenticationFailed', message: 'no bearer token' } });
      return;
    }
    const failure = failures.findIndex((f) => f.operation === operation);
    if (failure >= 0) {
      const status = failures.splice(failure, 1)[0]?.status ?? 500;
      sendJson(res, status, { error: { code: armErrorCode(status), message: `simulated HTTP ${status}` } });
      return;
    }
    if (operation === 'site') {
      sendJson(res, 200, siteResource(sitePath, site.siteName, defaultHostName));
      return;
    }
    if (operation === 'hostKeys') {
      sendJson(res, 200, {
        masterKey: 'arm-stand-in-master-key',
        functionKeys: { default: site.functionKey ?? 'arm-stand-in-function-key' },
        systemKeys: {},
      });
      return;
    }
    if (operation === 'update') {
      const body = JSON.parse(req.body) as { properties?: Record<string, string> };
      current = { ...(body.properties ?? {}) };
      const answer = resource();
      if (hook) current = hook({ ...current });
      sendJson(res, 200, answer);
      return;
    }
    sendJson(res, 200, resource());
  }

  return {
    url: server.url,
    requests,
    settings: () => ({ ...current }),
    setSettings: (s) => {
      current = { ...s };
    },
    failNext: (operation, status, times = 1) => {
      for (let i = 0; i < times; i++) failures.push({ operation, status });
    },
    clearFailures: () => {
      failures.length = 0;
    },
    holdNext: (operation) => {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ operation, released });
      return { release };
    },
    afterUpdate: (h) => {
      hook = h;
    },
    close: () => server.close(),
  };
}

/** The fields of a `Microsoft.Web/sites` resource a client reads; ARM answers many more. */
const siteResource = (id: string, name: string, defaultHostName: string) => ({
  id,
  name,
  type: 'Microsoft.Web/sites',
  kind: 'functionapp,linux',
  location: 'East US',
  properties: {
    state: 'Running',
    defaultHostName,
    hostNames: [defaultHostName],
    enabledHostNames: [defaultHostName, defaultHostName.replace('.', '.scm.')],
    httpsOnly: true,
  },
});

function armErrorCode(status: number): string {
  if (status === 403) return 'AuthorizationFailed';
  if (status === 401) return 'InvalidAuthenticationToken';
  if (status === 429) return 'TooManyRequests';
  return 'InternalServerError';
}

/** A fixed bearer token: the real credential chain is not under test, the ARM client is. */
export const staticTokenCredential = {
  getToken: () => Promise.resolve({ token: 'test-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
};
