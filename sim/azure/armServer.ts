import type { SelfSignedCert } from '../net/selfSignedCert';
import { type ReceivedRequest, sendJson, startHttpsServer } from '../net/httpsTestServer';

export type ArmOperation = 'list' | 'update';

export interface ArmServerSite {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly siteName: string;
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
  /** Runs after an update is applied, before the next request: simulates another writer. */
  afterUpdate(hook: ((settings: Record<string, string>) => Record<string, string>) | undefined): void;
  close(): Promise<void>;
}

/**
 * An ARM-shaped HTTPS server for one site's app settings:
 * `POST .../providers/Microsoft.Web/sites/{site}/config/appsettings/list` and
 * `PUT .../config/appsettings` (replaces the whole set), both requiring an api-version and a bearer token.
 */
export async function startArmServer(cert: SelfSignedCert, site: ArmServerSite): Promise<ArmServer> {
  const base =
    `/subscriptions/${site.subscriptionId}/resourceGroups/${site.resourceGroup}` +
    `/providers/Microsoft.Web/sites/${site.siteName}/config/appsettings`;
  let current: Record<string, string> = {};
  let hook: ((settings: Record<string, string>) => Record<string, string>) | undefined;
  const failures: { operation: ArmOperation; status: number }[] = [];
  const requests: ReceivedRequest[] = [];

  const resource = () => ({
    id: base,
    name: 'appsettings',
    type: 'Microsoft.Web/sites/config',
    properties: current,
  });

  const server = await startHttpsServer(cert, (req, res) => {
    requests.push(req);
    const operation: ArmOperation | undefined =
      req.method === 'POST' && req.path.toLowerCase() === `${base}/list`.toLowerCase()
        ? 'list'
        : req.method === 'PUT' && req.path.toLowerCase() === base.toLowerCase()
          ? 'update'
          : undefined;
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
    if (operation === 'update') {
      const body = JSON.parse(req.body) as { properties?: Record<string, string> };
      current = { ...(body.properties ?? {}) };
      const answer = resource();
      if (hook) current = hook({ ...current });
      sendJson(res, 200, answer);
      return;
    }
    sendJson(res, 200, resource());
  });

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
    afterUpdate: (h) => {
      hook = h;
    },
    close: () => server.close(),
  };
}

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
