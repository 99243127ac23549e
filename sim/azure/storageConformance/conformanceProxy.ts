import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { checkBlobRequest, checkQueueMessage } from './blobQueueLimits';
import { type Refusal, sendTableError, sendTransactionError, sendXmlError } from './serviceErrors';
import { checkEntity, checkFilter } from './tableLimits';
import { checkTransaction } from './transactionLimits';
import { keysInUrl } from './transactionRequest';

export type StorageService = 'blob' | 'queue' | 'table';

/**
 * The header every answer through the layer carries: the bypass check looks for it, so a client that
 * reached Azurite directly is found.
 */
export const CONFORMANCE_HEADER = 'x-storage-conformance';

export interface ConformanceProxy {
  readonly port: number;
  /** Refusals so far, by error code (what the layer caught that Azurite would have let through). */
  readonly refusals: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** A request as a fault rule sees it: the body only for the request kinds the layer reads whole. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Buffer | undefined;
}

/**
 * An injected failure (a test's, not the service's limits): answers the request it picks with the
 * refusal it returns, in the service's error shape, e.g. `serverBusy` for one selected queue message.
 */
export type FaultRule = (request: ProxiedRequest) => Refusal | undefined;

/** What the real service answers when an account or partition is over its scalability targets. */
export const serverBusy: Refusal = {
  status: 503,
  code: 'ServerBusy',
  message: 'The server is currently unable to receive requests. Please retry your request.',
};

/** Bodies the layer reads are small by the service's own limits; past this it refuses without reading. */
const MAX_INSPECTED_BODY = 8 * 1024 * 1024;

type Inspection =
  | { readonly kind: 'pass' }
  | { readonly kind: 'refuse'; readonly refusal: Refusal }
  | { readonly kind: 'body'; readonly check: (body: Buffer, res: http.ServerResponse) => boolean };

/**
 * An HTTP hop in front of one of Azurite's endpoints that refuses what the real service refuses and
 * Azurite lets through, in the service's own status, error code and error body. What it does not need
 * to read streams through untouched; the few request kinds with a body to check (Table entity writes
 * and transactions, queue messages) are read whole (they are bounded by the limits themselves).
 */
export async function startConformanceProxy(
  service: StorageService,
  upstreamPort: number,
  options: { readonly faults?: FaultRule } = {},
): Promise<ConformanceProxy> {
  const agent = new http.Agent({ keepAlive: true });
  const refusals = new Map<string, number>();
  const count = (code: string) => refusals.set(code, (refusals.get(code) ?? 0) + 1);
  const sendError = service === 'table' ? sendTableError : sendXmlError;
  const refuse = (res: http.ServerResponse, refusal: Refusal) => {
    count(refusal.code);
    res.setHeader(CONFORMANCE_HEADER, 'refused');
    sendError(res, refusal);
  };

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body?: Buffer) => {
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { ...up.headers, [CONFORMANCE_HEADER]: 'passed' });
        up.pipe(res);
      },
    );
    // Azurite gone or the connection cut: the client sees the connection fail, as it would.
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };

  const inspect = service === 'table' ? inspectTable : service === 'queue' ? inspectQueue : inspectBlob;
  const faultOf = (req: http.IncomingMessage, body: Buffer | undefined) =>
    options.faults?.({ method: (req.method ?? 'GET').toUpperCase(), path: req.url ?? '/', body });
  const server = http.createServer((req, res) => {
    const inspection = inspect(req, (r, refusal) => {
      refuse(r, refusal);
    });
    if (inspection.kind === 'pass') {
      const fault = faultOf(req, undefined);
      if (fault) {
        req.resume();
        refuse(res, fault);
      } else forward(req, res);
      return;
    }
    if (inspection.kind === 'refuse') {
      req.resume();
      refuse(res, inspection.refusal);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_INSPECTED_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_INSPECTED_BODY) {
        refuse(res, {
          status: 413,
          code: 'RequestBodyTooLarge',
          message: 'The request body is too large and exceeds the maximum permissible limit.',
        });
        return;
      }
      const body = Buffer.concat(chunks);
      const fault = faultOf(req, body);
      if (fault) refuse(res, fault);
      else if (inspection.check(body, res)) forward(req, res, body);
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    refusals,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

type Refuse = (res: http.ServerResponse, refusal: Refusal) => void;

function inspectTable(req: http.IncomingMessage, refuse: Refuse): Inspection {
  const url = new URL(req.url ?? '/', 'http://local');
  const filter = url.searchParams.get('$filter');
  if (filter !== null) {
    const refusal = checkFilter(filter);
    if (refusal) return { kind: 'refuse', refusal };
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const resource = safeDecode(segments[1] ?? '');
  if (method === 'POST' && resource === '$batch')
    return {
      kind: 'body',
      check: (body, res) => {
        const refusal = checkTransaction(body);
        if (refusal === undefined) return true;
        if (refusal.scope === 'request') refuse(res, refusal.refusal);
        else {
          res.setHeader(CONFORMANCE_HEADER, 'refused');
          sendTransactionError(res, refusal.refusal, refusal.index);
        }
        return false;
      },
    };
  const writesEntity =
    (method === 'POST' && resource !== '' && resource !== 'Tables' && !resource.includes('(')) ||
    ((method === 'PUT' || method === 'PATCH' || method === 'MERGE') && resource.includes('(PartitionKey='));
  if (!writesEntity) return { kind: 'pass' };
  return {
    kind: 'body',
    check: (body, res) => {
      let entity: unknown;
      try {
        entity = JSON.parse(body.toString('utf8'));
      } catch {
        return true; // not JSON: Azurite answers it as the service would
      }
      if (typeof entity !== 'object' || entity === null) return true;
      const refusal = checkEntity(entity as Record<string, unknown>, keysInUrl(url.pathname));
      if (refusal === undefined) return true;
      refuse(res, refusal);
      return false;
    },
  };
}

function inspectQueue(req: http.IncomingMessage, refuse: Refuse): Inspection {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const method = (req.method ?? 'GET').toUpperCase();
  const putsMessage =
    (method === 'POST' && /\/messages\/?$/.test(path)) ||
    (method === 'PUT' && /\/messages\/[^/]+$/.test(path));
  if (!putsMessage) return { kind: 'pass' };
  return {
    kind: 'body',
    check: (body, res) => {
      const refusal = checkQueueMessage(body);
      if (refusal === undefined) return true;
      refuse(res, refusal);
      return false;
    },
  };
}

function inspectBlob(req: http.IncomingMessage): Inspection {
  const refusal = checkBlobRequest(req.url ?? '/', req.headers);
  return refusal ? { kind: 'refuse', refusal } : { kind: 'pass' };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
