import { type ReceivedRequest, sendJson, startHttpsServer } from '../net/httpsTestServer';
import type { SelfSignedCert } from '../net/selfSignedCert';

export interface KeyVaultServer {
  readonly url: string;
  /** Every request, in order (method, path, api-version, auth). */
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A Key Vault-shaped HTTPS server holding `secrets` (name to value), answering the data plane's Get
 * Secret as the REST API does: `GET /secrets/{name}[/{version}]?api-version=…` with a bearer token gives
 * `{ value, id, attributes }`; an unknown secret is 404 `SecretNotFound`, no token 401.
 */
export async function startKeyVaultServer(
  cert: SelfSignedCert,
  secrets: Readonly<Record<string, string>>,
): Promise<KeyVaultServer> {
  const requests: ReceivedRequest[] = [];
  const server = await startHttpsServer(cert, (req, res) => {
    requests.push(req);
    const match = /^\/secrets\/([0-9a-zA-Z-]{1,127})(?:\/([0-9a-f]{32}))?\/?$/.exec(req.path);
    if (req.method !== 'GET' || !match?.[1]) {
      sendJson(res, 404, { error: { code: 'NotFound', message: `no route ${req.method} ${req.path}` } });
      return;
    }
    if (!req.query.get('api-version')) {
      sendJson(res, 400, { error: { code: 'BadParameter', message: 'api-version is required' } });
      return;
    }
    if (!req.headers.authorization?.startsWith('Bearer ')) {
      sendJson(res, 401, {
        error: { code: 'Unauthorized', message: 'AKV10000: Request is missing a Bearer' },
      });
      return;
    }
    const value = secrets[match[1]];
    if (value === undefined) {
      sendJson(res, 404, {
        error: {
          code: 'SecretNotFound',
          message: `A secret with (name/id) ${match[1]} was not found in this key vault.`,
        },
      });
      return;
    }
    const host = req.headers.host ?? 'vault';
    sendJson(res, 200, {
      value,
      id: `https://${host}/secrets/${match[1]}/${match[2] ?? '4387e9f3d6e14c459867679a90fd0f79'}`,
      attributes: {
        enabled: true,
        created: 1_767_225_600,
        updated: 1_767_225_600,
        recoveryLevel: 'Recoverable',
      },
    });
  });
  return { url: server.url, requests, close: () => server.close() };
}
