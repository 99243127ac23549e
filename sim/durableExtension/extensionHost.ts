/**
 * Starts the .NET WebJobs host with the real Durable extension (built by `npm run build:durable-host`)
 * against the given storage, and waits for its one ready line carrying the durableClient binding data.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { spawnService, stopService } from '../services/childProcesses';

const ROOT = path.resolve(__dirname, '..', '..');
export const HOST_DLL = path.join(__dirname, 'host', 'bin', 'Release', 'net10.0', 'DurableExtensionHost.dll');
const READY = 'BREAKWATER_READY ';
const START_TIMEOUT_MS = 60_000;

export interface ExtensionHost {
  /** The durableClient binding data the extension hands an out-of-process function. */
  readonly clientData: Record<string, unknown>;
  readonly taskHub: string;
  /** The host's log lines (warnings and the Durable extension's own information lines). */
  readonly log: readonly string[];
  stop(): Promise<void>;
  /** Kills the host process at once, as a crash does. */
  kill(): Promise<void>;
}

export interface ExtensionHostOptions {
  readonly storageConnectionString: string;
  readonly bridgeUrl: string;
  readonly taskHub: string;
  /** `storageProvider.workItemQueueVisibilityTimeout` (hh:mm:ss); the extension's default when absent. */
  readonly workItemVisibility?: string;
}

export async function startExtensionHost(options: ExtensionHostOptions): Promise<ExtensionHost> {
  if (!existsSync(HOST_DLL))
    throw new Error(`${path.relative(ROOT, HOST_DLL)} is missing: run npm run build:durable-host`);
  const log: string[] = [];
  const child = spawnService(
    'dotnet',
    [HOST_DLL],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        AzureWebJobsStorage: options.storageConnectionString,
        // The out-of-process protocol the Node worker speaks (upperSchemaVersion 1 / New 3).
        FUNCTIONS_WORKER_RUNTIME: 'node',
        BRIDGE_URL: options.bridgeUrl,
        BREAKWATER_HOST_JSON: path.join(ROOT, 'host.json'),
        BREAKWATER_TASK_HUB: options.taskHub,
        ...(options.workItemVisibility
          ? { BREAKWATER_WORK_ITEM_VISIBILITY: options.workItemVisibility }
          : {}),
        DOTNET_NOLOGO: '1',
        DOTNET_CLI_TELEMETRY_OPTOUT: '1',
      },
    },
    { name: 'the Durable extension host' },
  );
  const clientData = await readyLine(child, log);
  return {
    clientData,
    taskHub: options.taskHub,
    log,
    stop: () => stopService(child),
    kill: () => {
      const exited = new Promise<void>((resolve) => {
        child.once('exit', () => {
          resolve();
        });
      });
      child.kill('SIGKILL');
      return exited;
    },
  };
}

function readyLine(child: ChildProcess, log: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `the Durable extension host did not start within ${START_TIMEOUT_MS / 1000} s:\n${log.slice(-20).join('\n')}`,
        ),
      );
    }, START_TIMEOUT_MS);
    const onLine = (line: string) => {
      if (!line.startsWith(READY)) {
        if (line.trim() !== '') log.push(line);
        return;
      }
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(READY.length)) as Record<string, unknown>);
    };
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        lines.forEach(onLine);
      });
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`the Durable extension host exited (code ${String(code)}):\n${log.slice(-20).join('\n')}`),
      );
    });
  });
}
