import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { DurableHost } from '../../support/durableHost';
import type { Clock } from '../../../src/time/clock';
import { durableClientData } from '../../support/durableClientData';

/**
 * The Durable extension for end-to-end runs: the HTTP management API the real `durable-functions`
 * client calls (start, status, raiseEvent), backed by a test DurableHost per instance that runs the
 * real replay engine. Orchestration time follows the simulation clock.
 *
 * Like the extension, starting an instance id that exists replaces it (`startNew` is not idempotent:
 * the app must check first), raising an event on a finished instance does nothing, and terminate ends
 * a running one.
 */
export class DurableBackend {
  readonly hosts = new Map<string, DurableHost>();
  /** Every start request, in order, including ones that replaced an instance. */
  readonly starts: { instanceId: string; at: number }[] = [];
  readonly raised: { instanceId: string; name: string; data: unknown }[] = [];
  private server: http.Server | undefined;
  private work: Promise<unknown> = Promise.resolve();
  clientData: Record<string, unknown> = {};

  constructor(private readonly clock: Clock) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.handle(req.method ?? 'GET', req.url ?? '/', Buffer.concat(chunks).toString())
          .then(({ status, json }) => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(json === undefined ? '' : JSON.stringify(json));
          })
          .catch((error: unknown) => {
            res.writeHead(500);
            res.end(String(error));
          });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const port = (this.server.address() as AddressInfo).port;
    this.clientData = durableClientData(port, 'E2E');
  }

  /** Moves every orchestration's clock to the simulation's and runs what became due. */
  async catchUp(): Promise<void> {
    await this.work;
    for (const host of this.hosts.values()) {
      if (host.runtimeStatus !== 'Running') continue;
      const delta = this.clock.now() - host.now;
      if (delta > 0) host.advance(delta);
      await host.run();
    }
  }

  async close(): Promise<void> {
    await this.work;
    await new Promise<void>((resolve) => {
      if (!this.server) {
        resolve();
        return;
      }
      this.server.closeAllConnections();
      this.server.close(() => {
        resolve();
      });
    });
  }

  private handle(method: string, rawUrl: string, text: string): Promise<{ status: number; json?: unknown }> {
    return Promise.resolve(this.route(method, rawUrl, text));
  }

  private route(method: string, rawUrl: string, text: string): { status: number; json?: unknown } {
    const url = new URL(rawUrl, 'http://backend');
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    let m = /\/orchestrators\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const [name, id] = [decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? '')];
      const host = new DurableHost({
        orchestrator: name,
        instanceId: id,
        input: body,
        startAt: this.clock.now(),
      });
      this.hosts.set(id, host);
      this.starts.push({ instanceId: id, at: this.clock.now() });
      // The first episode runs after the start request returns, as in the extension.
      this.work = this.work.then(() => host.run());
      return { status: 202, json: { id } };
    }
    m = /\/instances\/([^/]+)\/raiseEvent\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const instanceId = decodeURIComponent(m[1] ?? '');
      const host = this.hosts.get(instanceId);
      if (!host) return { status: 404 };
      const name = decodeURIComponent(m[2] ?? '');
      this.raised.push({ instanceId, name, data: body });
      host.raiseEvent(name, body);
      this.work = this.work.then(() => host.run());
      return { status: 202 };
    }
    m = /\/instances\/([^/]+)\/terminate$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const host = this.hosts.get(decodeURIComponent(m[1] ?? ''));
      if (!host) return { status: 404 };
      if (host.runtimeStatus !== 'Running') return { status: 410 };
      host.terminate(url.searchParams.get('reason') ?? '');
      return { status: 202 };
    }
    m = /\/instances\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && m) {
      const id = decodeURIComponent(m[1] ?? '');
      const host = this.hosts.get(id);
      if (!host) return { status: 404 };
      return {
        status: 200,
        json: {
          name: host.options.orchestrator,
          instanceId: id,
          runtimeStatus: host.runtimeStatus,
          input: host.options.input,
          customStatus: host.customStatus ?? null,
          output: host.output ?? null,
          createdTime: new Date(host.options.startAt).toISOString(),
          lastUpdatedTime: new Date(host.now).toISOString(),
        },
      };
    }
    return { status: 404, json: { error: `no route for ${method} ${url.pathname}` } };
  }
}
