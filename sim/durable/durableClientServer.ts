/**
 * A stand-in for the Durable extension's HTTP management API (start, status, raiseEvent, terminate)
 * for the real `durable-functions` client. Each started instance can be backed by a DurableHost that
 * runs the registered orchestrator for real: a start runs it until it waits, a raised event is
 * delivered to it, and its status and custom status come from it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { durableClientData } from './durableClientData';
import { DurableHost } from './durableHost';

export interface ServedInstance {
  readonly name: string;
  readonly input: unknown;
  readonly host: DurableHost | undefined;
  /** Set by terminate or by the test (e.g. 'Failed'); wins over the host's status. */
  statusOverride: string | undefined;
}

export interface DurableClientServer {
  readonly instances: Map<string, ServedInstance>;
  /** Every request, as "METHOD path". */
  readonly calls: string[];
  /** The `durableClient` binding data the extension would hand a function. */
  readonly clientData: Record<string, unknown>;
  /** Makes the next `count` start requests answer 500. */
  failStarts(count: number): void;
  /** When true, starting over a live instance answers 409 (a host that refuses duplicates). */
  refuseDuplicates: boolean;
  /** Registers an instance in a given state without a host (e.g. a failed one). */
  putInstance(instanceId: string, name: string, runtimeStatus: string): void;
  host(instanceId: string): DurableHost;
  /** A context whose durable client input points here, for calling handlers directly. */
  context(functionName?: string): InvocationContext;
  /** RPC input data for `invokeRpc` of a function that declares a durable client input. */
  rpcInput(bindingName: string): { name: string; data: { string: string } };
  close(): Promise<void>;
}

export interface DurableClientServerOptions {
  /** Run started instances on a DurableHost (default true). */
  readonly runHosts?: boolean;
  /** Start of each host's clock. */
  readonly startAt?: number;
}

export async function startDurableClientServer(
  options: DurableClientServerOptions = {},
): Promise<DurableClientServer> {
  const instances = new Map<string, ServedInstance>();
  const calls: string[] = [];
  let startFailures = 0;
  const control = { refuseDuplicates: false };

  const statusOf = (i: ServedInstance) => i.statusOverride ?? i.host?.runtimeStatus ?? 'Pending';
  const live = (i: ServedInstance) => ['Pending', 'Running'].includes(statusOf(i));

  const handle = async (method: string, url: URL, body: unknown): Promise<[number, unknown?]> => {
    let m = /\/orchestrators\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const [name, id] = [decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? '')];
      if (startFailures > 0) {
        startFailures--;
        return [500, { message: 'storage hiccup' }];
      }
      const existing = instances.get(id);
      // The extension answers a start over a live instance with 500 (NonRunningStates); the client rejects.
      if (control.refuseDuplicates && existing && live(existing)) return [500, { message: 'already exists' }];
      const host =
        options.runHosts === false
          ? undefined
          : new DurableHost({
              orchestrator: name,
              instanceId: id,
              input: body,
              startAt: options.startAt ?? Date.UTC(2026, 0, 1),
            });
      instances.set(id, { name, input: body, host, statusOverride: undefined });
      await host?.run();
      return [202, { id }];
    }
    m = /\/instances\/([^/]+)\/raiseEvent\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const found = instances.get(decodeURIComponent(m[1] ?? ''));
      if (!found) return [404];
      if (!live(found)) return [410];
      await found.host?.deliver(decodeURIComponent(m[2] ?? ''), body);
      return [202];
    }
    m = /\/instances\/([^/]+)\/terminate$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const found = instances.get(decodeURIComponent(m[1] ?? ''));
      if (!found) return [404];
      if (!live(found)) return [410];
      found.statusOverride = 'Terminated';
      return [202];
    }
    m = /\/instances\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && m) {
      const id = decodeURIComponent(m[1] ?? '');
      const found = instances.get(id);
      if (!found) return [404];
      return [
        200,
        {
          name: found.name,
          instanceId: id,
          runtimeStatus: statusOf(found),
          input: found.input,
          customStatus: found.host?.customStatus ?? null,
          output: found.host?.output ?? null,
          createdTime: '2026-01-01T00:00:00Z',
          lastUpdatedTime: '2026-01-01T00:00:00Z',
        },
      ];
    }
    return [404, { message: `no route for ${method} ${url.pathname}` }];
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      calls.push(`${method} ${url.pathname}`);
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      handle(method, url, body).then(
        ([status, json]) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(json === undefined ? '' : JSON.stringify(json));
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const clientData = durableClientData(port, 'TestHub');

  return {
    instances,
    calls,
    clientData,
    failStarts: (count) => {
      startFailures = count;
    },
    get refuseDuplicates() {
      return control.refuseDuplicates;
    },
    set refuseDuplicates(value) {
      control.refuseDuplicates = value;
    },
    putInstance: (instanceId, name, runtimeStatus) => {
      instances.set(instanceId, { name, input: null, host: undefined, statusOverride: runtimeStatus });
    },
    host: (instanceId) => {
      const host = instances.get(instanceId)?.host;
      if (!host) throw new Error(`no hosted instance ${instanceId}`);
      return host;
    },
    context: (functionName = 'test') => {
      const input = df.input.durableClient();
      const ctx = new InvocationContext({ functionName, options: { extraInputs: [input] } });
      ctx.extraInputs.set(input, clientData);
      return ctx;
    },
    rpcInput: (bindingName) => ({ name: bindingName, data: { string: JSON.stringify(clientData) } }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
