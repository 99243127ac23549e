import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Clock } from '../../src/kernel/clock';
import { durableClientData } from './durableClientData';
import { DurableHost } from './durableHost';
import type { DurableWorker } from './durableHostOptions';

/** How a start with the id of an existing instance is decided (see `DurableBackend`). */
export const START_CONFLICTS = ['refuse', 'race'] as const;
export type StartConflict = (typeof START_CONFLICTS)[number];

export interface DurableBackendOptions {
  /**
   * `refuse` (default): like the extension with `overridableExistingInstanceStates: NonRunningStates`,
   * a start over a live instance fails (HTTP 500, the client rejects) and a finished one is replaced.
   * `race`: as on Azure Storage, the check is a read and then a write, so two starts whose reads come
   * before either write both succeed; the later write replaces the earlier instance.
   */
  readonly startConflict?: StartConflict;
  /** The worker's generation: activities whose run spans a change are killed and run again. */
  readonly workerGeneration?: () => string | number;
  /** While true (a host restart under way) no orchestration work runs. */
  readonly paused?: () => boolean;
  /** Resolves once the app's functions are registered again (a restart reloads the app). */
  readonly appReady?: () => Promise<void>;
  /** When a pending restart kills the worker (virtual time); undefined with none pending. */
  readonly restartLandsAt?: () => number | undefined;
  /** The notional virtual time one activity run takes on the worker (default 1 s). */
  readonly activityMs?: number;
  /**
   * How long a killed activity's message stays invisible before it runs again (the work-item queue's
   * visibility timeout: 5 min by default on Azure Storage). Default 0: the sim is kinder here unless a
   * run draws it.
   */
  readonly redeliveryMs?: () => number;
  /** Timers fire this much after (negative: before) their FireAt; drawn per timer. */
  readonly timerSkewMs?: () => number;
  /** Whether a TimerFired goes before an EventRaised that reach one episode together. */
  readonly timersFirst?: () => boolean;
}

/**
 * The Durable extension for end-to-end runs: the HTTP management API the real `durable-functions`
 * client calls (start, status, raiseEvent), backed by a test DurableHost per instance that runs the
 * real replay engine. Orchestration time follows the simulation clock. Raising an event on a finished
 * instance does nothing. A started instance's first episode runs once no start request is in flight
 * (the extension dispatches from a queue, well after the write).
 */
export class DurableBackend {
  readonly hosts = new Map<string, DurableHost>();
  /** Every accepted start request, in order, including ones that replaced an instance. */
  readonly starts: { instanceId: string; at: number }[] = [];
  /** Start requests refused because the instance was live. */
  readonly refusedStarts: { instanceId: string; at: number; runtimeStatus: string }[] = [];
  readonly raised: { instanceId: string; name: string; data: unknown }[] = [];
  /** How the next start over an existing instance is decided (a property run may switch it). */
  startConflict: StartConflict;
  /** Called between a start request's arrival and its write (a test lets another start in here). */
  onStartRequest: ((instanceId: string) => Promise<void>) | undefined;
  private server: http.Server | undefined;
  private work: Promise<unknown> = Promise.resolve();
  private startsInFlight = 0;
  private startsSettled: Promise<void> = Promise.resolve();
  private settleStarts: () => void = () => undefined;
  clientData: Record<string, unknown> = {};
  /** Where the worker's notional timeline stands (activities run one after another on it). */
  private busyUntil = 0;
  /** Activity runs a restart killed half-way, with the time each comes back. */
  readonly redeliveries: number[] = [];
  private readonly worker: DurableWorker = {
    now: () => this.clock.now(),
    begin: () => {
      const landsAt = this.options.restartLandsAt?.();
      const start = Math.max(this.clock.now(), this.busyUntil);
      if (landsAt !== undefined && start >= landsAt) return 'down';
      const span = { start, end: start + (this.options.activityMs ?? 1000) };
      this.busyUntil = span.end;
      return span;
    },
    killedDuring: (span) => {
      const landsAt = this.options.restartLandsAt?.();
      return landsAt !== undefined && landsAt < span.end;
    },
    redeliverAt: () => {
      const at = (this.options.restartLandsAt?.() ?? this.clock.now()) + (this.options.redeliveryMs?.() ?? 0);
      this.redeliveries.push(at);
      return at;
    },
  };

  constructor(
    private readonly clock: Clock,
    private readonly options: DurableBackendOptions = {},
  ) {
    this.startConflict = options.startConflict ?? 'refuse';
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.route(req.method ?? 'GET', req.url ?? '/', Buffer.concat(chunks).toString())
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
      if (this.options.paused?.() === true) return;
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

  /** Runs a host's pending work unless it was replaced meanwhile or a restart is under way. */
  private runLater(id: string, host: DurableHost, afterStarts = false): void {
    this.work = this.work
      .then(() => (afterStarts ? this.startsSettled : undefined))
      .then(() => (this.hosts.get(id) === host && this.options.paused?.() !== true ? host.run() : undefined));
  }

  private async startInstance(name: string, id: string, body: unknown) {
    if (this.startsInFlight++ === 0) this.startsSettled = new Promise((r) => (this.settleStarts = r));
    try {
      const race = this.startConflict === 'race';
      // Azure Storage reads first and writes later; the extension's default decides atomically.
      let existing = race ? this.hosts.get(id) : undefined;
      await this.onStartRequest?.(id);
      if (!race) existing = this.hosts.get(id);
      if (existing?.runtimeStatus === 'Running') {
        this.refusedStarts.push({ instanceId: id, at: this.clock.now(), runtimeStatus: 'Running' });
        return { status: 500, json: { error: `an instance with id ${id} is already Running` } };
      }
      const host = new DurableHost({
        orchestrator: name,
        instanceId: id,
        input: body,
        startAt: this.clock.now(),
        ...(this.options.workerGeneration ? { workerGeneration: this.options.workerGeneration } : {}),
        ...(this.options.appReady ? { appReady: this.options.appReady } : {}),
        ...(this.options.restartLandsAt ? { worker: this.worker } : {}),
        ...(this.options.timerSkewMs ? { timerSkewMs: this.options.timerSkewMs } : {}),
        ...(this.options.timersFirst ? { timersFirst: this.options.timersFirst } : {}),
      });
      this.hosts.set(id, host);
      this.starts.push({ instanceId: id, at: this.clock.now() });
      this.runLater(id, host, true);
      return { status: 202, json: { id } };
    } finally {
      if (--this.startsInFlight === 0) this.settleStarts();
    }
  }

  private async route(
    method: string,
    rawUrl: string,
    text: string,
  ): Promise<{ status: number; json?: unknown }> {
    const url = new URL(rawUrl, 'http://backend');
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    let m = /\/orchestrators\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && m) {
      return this.startInstance(decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? ''), body);
    }
    m = /\/instances\/([^/]+)\/raiseEvent\/([^/]+)$/.exec(url.pathname);
    if (method === 'POST' && m) {
      const instanceId = decodeURIComponent(m[1] ?? '');
      const host = this.hosts.get(instanceId);
      if (!host) return { status: 404 };
      const name = decodeURIComponent(m[2] ?? '');
      this.raised.push({ instanceId, name, data: body });
      host.raiseEvent(name, body);
      this.runLater(instanceId, host);
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
