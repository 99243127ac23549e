import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultRule {
  /** Return an HTTP status to answer instead of forwarding, or undefined to forward. */
  (request: { method: string; url: string }): number | undefined;
}

export interface FaultProxy {
  readonly port: number;
  /** Swaps the rule; `undefined` forwards everything. */
  setRule(rule: FaultRule | undefined): void;
  /** Requests answered by the rule so far. */
  readonly injected: { method: string; url: string; status: number }[];
  close(): Promise<void>;
}

/**
 * A real HTTP hop in front of a local service (Azurite) that answers chosen requests with an error
 * status: the SDK client under test sees a genuine 503 over the wire, as during a real outage.
 */
export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let rule: FaultRule | undefined;
  const injected: FaultProxy['injected'] = [];
  const server = http.createServer((req, res) => {
    const request = { method: req.method ?? 'GET', url: decodeURIComponent(req.url ?? '/') };
    const status = rule?.(request);
    if (status !== undefined) {
      injected.push({ ...request, status });
      req.resume();
      res.writeHead(status, { 'content-type': 'application/json', 'x-ms-error-code': 'ServerBusy' });
      res.end(
        JSON.stringify({ 'odata.error': { code: 'ServerBusy', message: { value: 'injected fault' } } }),
      );
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setRule: (r) => {
      rule = r;
    },
    injected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Rewrites one endpoint of an Azurite connection string (e.g. TableEndpoint) to go through a port. */
export function withEndpointPort(
  connectionString: string,
  endpoint: 'TableEndpoint' | 'BlobEndpoint' | 'QueueEndpoint',
  port: number,
) {
  return connectionString.replace(
    new RegExp(`${endpoint}=http://127\\.0\\.0\\.1:\\d+`),
    `${endpoint}=http://127.0.0.1:${port}`,
  );
}

/** The Azurite port of one endpoint in a connection string. */
export function endpointPort(
  connectionString: string,
  endpoint: 'TableEndpoint' | 'BlobEndpoint' | 'QueueEndpoint',
): number {
  const match = new RegExp(`${endpoint}=http://127\\.0\\.0\\.1:(\\d+)`).exec(connectionString);
  if (!match?.[1]) throw new Error(`no ${endpoint} in connection string`);
  return Number(match[1]);
}
