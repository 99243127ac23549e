/**
 * The Node side of the loopback bridge: the .NET host's forwarding stubs post the extension's payloads
 * here, and each becomes one invocation of the app's registered function through the real programming
 * model and durable-functions library, as the Node worker would run it. A throw travels back as the
 * worker reports it: its message (for an orchestrator, with the library's `$OutOfProcData$` state).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { invokeRpc, type LogLine } from '../host/fakeFunctionsCore';

export interface WorkerBridge {
  readonly url: string;
  /** Every invocation the bridge ran, in order (for assertions). */
  readonly invocations: readonly BridgeInvocation[];
  /** The app's log lines, as the worker would forward them. */
  readonly logs: readonly LogLine[];
  close(): Promise<void>;
}

export interface BridgeInvocation {
  readonly kind: 'orchestrator' | 'activity';
  readonly name: string;
  readonly ok: boolean;
  /** The activity's input as the extension sent it (JSON text); the orchestrator's context for replays. */
  readonly payload: string;
  readonly message?: string;
}

export interface WorkerBridgeOptions {
  /**
   * Called before an activity runs; resolving `'kill'` ends the request without an answer, as a worker
   * process that died mid-run leaves its invocation (the host then sees the call fail).
   */
  readonly beforeActivity?: (name: string, inputJson: string) => Promise<'run' | 'kill'>;
  /** Awaited after an activity ran and before its answer goes back: holds the orchestration between two steps. */
  readonly afterActivity?: (name: string, inputJson: string) => Promise<void>;
}

type Reply = { ok: true; json: string | null } | { ok: false; message: string };

export async function startWorkerBridge(options: WorkerBridgeOptions = {}): Promise<WorkerBridge> {
  const invocations: BridgeInvocation[] = [];
  const logs: LogLine[] = [];

  async function run(kind: BridgeInvocation['kind'], name: string, payload: string): Promise<Reply> {
    try {
      const { response } = await invokeRpc(name, { trigger: { json: payload }, logs });
      const returned = (response.returnValue as { json?: string } | undefined)?.json;
      invocations.push({ kind, name, ok: true, payload });
      return { ok: true, json: returned ?? null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      invocations.push({ kind, name, ok: false, payload, message });
      return { ok: false, message };
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/(orchestrator|activity)\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        res.writeHead(404).end();
        return;
      }
      const kind = match[1] as BridgeInvocation['kind'];
      const name = decodeURIComponent(match[2] ?? '');
      const payload = Buffer.concat(chunks).toString('utf8');
      (async () => {
        if (kind === 'activity' && (await options.beforeActivity?.(name, payload)) === 'kill') {
          invocations.push({ kind, name, ok: false, payload, message: 'killed' });
          res.destroy();
          return;
        }
        const reply = await run(kind, name, payload);
        if (kind === 'activity') await options.afterActivity?.(name, payload);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    invocations,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
