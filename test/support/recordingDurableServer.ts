import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { durableClientData } from '../../sim/durable/durableClientData';

export interface FakeInstance {
  name: string;
  input: unknown;
  runtimeStatus: string;
  customStatus: unknown;
  /** The reason given when it was terminated. */
  terminatedBecause?: string;
}

export interface RaisedEvent {
  readonly instanceId: string;
  readonly name: string;
  readonly data: unknown;
}

export interface RecordingDurableServer {
  readonly instances: Map<string, FakeInstance>;
  readonly raised: RaisedEvent[];
  /** The `durableClient` binding data the Durable extension would hand the function. */
  readonly clientData: Record<string, unknown>;
  /** Called on every raised event (e.g. to move the fake orchestration to its next phase). */
  onRaise: ((event: RaisedEvent) => void) | undefined;
  close(): Promise<void>;
}

/**
 * A stand-in for the Durable extension's HTTP management API: enough of start, status, raiseEvent and
 * terminate for the real `durable-functions` client, recording what it was asked to do.
 */
export async function startRecordingDurableServer(): Promise<RecordingDurableServer> {
  const instances = new Map<string, FakeInstance>();
  const raised: RaisedEvent[] = [];
  const state: { onRaise: RecordingDurableServer['onRaise'] } = { onRaise: undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      const url = new URL(req.url ?? '/', 'http://fake');
      const send = (status: number, json?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(json === undefined ? '' : JSON.stringify(json));
      };
      let m = /\/orchestrators\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && m) {
        const [name, id] = [decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? '')];
        instances.set(id, { name, input: body, runtimeStatus: 'Running', customStatus: null });
        send(202, { id });
        return;
      }
      m = /\/instances\/([^/]+)\/raiseEvent\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'POST' && m) {
        const event = {
          instanceId: decodeURIComponent(m[1] ?? ''),
          name: decodeURIComponent(m[2] ?? ''),
          data: body,
        };
        if (!instances.has(event.instanceId)) {
          send(404);
          return;
        }
        raised.push(event);
        state.onRaise?.(event);
        send(202);
        return;
      }
      m = /\/instances\/([^/]+)\/terminate$/.exec(url.pathname);
      if (req.method === 'POST' && m) {
        const found = instances.get(decodeURIComponent(m[1] ?? ''));
        if (!found) {
          send(404);
          return;
        }
        // Like the extension: 202 for a running instance, 410 for one that has finished.
        if (found.runtimeStatus !== 'Running') {
          send(410);
          return;
        }
        found.runtimeStatus = 'Terminated';
        found.terminatedBecause = url.searchParams.get('reason') ?? '';
        send(202);
        return;
      }
      m = /\/instances\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        const id = decodeURIComponent(m[1] ?? '');
        const found = instances.get(id);
        if (!found) {
          send(404);
          return;
        }
        send(200, {
          name: found.name,
          instanceId: id,
          runtimeStatus: found.runtimeStatus,
          input: found.input,
          customStatus: found.customStatus,
          output: null,
          createdTime: '2026-01-01T00:00:00Z',
          lastUpdatedTime: '2026-01-01T00:00:00Z',
        });
        return;
      }
      send(404, { error: `no route for ${req.method ?? '?'} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const clientData = durableClientData(port, 'TestHub');
  return {
    instances,
    raised,
    clientData,
    get onRaise() {
      return state.onRaise;
    },
    set onRaise(fn) {
      state.onRaise = fn;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
