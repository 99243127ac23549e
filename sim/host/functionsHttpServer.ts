import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { fakeCore } from './fakeFunctionsCore';
import { type ExtraInputs, httpTriggerOf, invokeHttp } from './httpInvoke';

export interface FunctionsHttpServer {
  readonly baseUrl: string;
  /** Every request served, for assertions. */
  readonly served: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

export interface FunctionsHttpServerOptions {
  /** Accepted function key (`?code=` or `x-functions-key`) for `authLevel: 'function'` routes. */
  readonly functionKey: string;
  /** Binding data of extra inputs by binding type, e.g. `{ durableClient: clientData }`. */
  readonly extraInputs?: () => ExtraInputs;
}

/**
 * A small stand-in for the Functions host's HTTP front end: serves `/api/<route>` for every registered
 * HTTP function, enforces its methods and function-key auth level, and turns each request into an
 * invocation through the real programming model. Lets a real browser (or curl) drive the app.
 */
export async function startFunctionsHttpServer(
  options: FunctionsHttpServerOptions,
): Promise<FunctionsHttpServer> {
  const served: FunctionsHttpServer['served'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks))
        .then((out) => {
          served.push({ method: req.method ?? '?', path: req.url ?? '/', status: out.status });
          res.writeHead(out.status, out.headers);
          res.end(out.body);
        })
        .catch((error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`host error: ${error instanceof Error ? error.message : String(error)}`);
        });
    });
  });

  const handle = async (req: http.IncomingMessage, body: Buffer) => {
    const url = new URL(req.url ?? '/', baseUrl);
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\//, '');
    const fn = [...fakeCore.registry.keys()].find((name) => {
      const reg = fakeCore.registry.get(name);
      const isHttp = Object.values(reg?.metadata.bindings ?? {}).some((b) => b.type === 'httpTrigger');
      return isHttp && httpTriggerOf(name).route === path;
    });
    if (fn === undefined) return { status: 404, headers: {}, body: 'not found' };
    const trigger = httpTriggerOf(fn);
    if (trigger.methods.length > 0 && !trigger.methods.includes(method))
      return { status: 405, headers: {}, body: 'method not allowed' };
    const key = url.searchParams.get('code') ?? req.headers['x-functions-key'];
    if (trigger.authLevel !== 'anonymous' && key !== options.functionKey)
      return { status: 401, headers: { 'content-type': 'text/plain' }, body: 'a function key is required' };
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    const result = await invokeHttp(
      fn,
      { method, url: url.toString(), headers, ...(body.length > 0 ? { body } : {}) },
      options.extraInputs?.() ?? {},
    );
    return result;
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
