/**
 * The breaker's orchestration where Azure runs it: the real Durable extension (a .NET WebJobs host, Azure
 * Storage backend on Azurite) replays the app's registered orchestrator and runs its activities through
 * the worker bridge; the app's HTTP functions (approval page, operator API) and the watchdog get the
 * extension's own durableClient binding data, so their starts, events and status reads reach the
 * extension. ARM and email are the simulator's local servers.
 */
import { randomBytes } from 'node:crypto';
import { InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';

import { type ArmServer, startArmServer } from '../azure/armServer';
import { type SmtpSink, startSmtpSink } from '../azure/smtpSink';
import { bindingOfType, invokeRpc } from '../host/fakeFunctionsCore';
import { type FunctionsHttpServer, startFunctionsHttpServer } from '../host/functionsHttpServer';
import { makeSelfSignedCert } from '../net/selfSignedCert';
import { type AzuriteService, startAzurite } from '../services/azurite';
import { approvalLinksIn, approveLikeAPerson } from '../world/operatorActions';
import { EXTENSION_SITE, type ExtensionApp, GUARDED_FUNCTION, loadAppForExtension } from './extensionApp';
import { type ExtensionHost, startExtensionHost } from './extensionHost';
import { startWorkerBridge, type WorkerBridge, type WorkerBridgeOptions } from './workerBridge';

export const FUNCTION_KEY = 'durable-extension-key';
export const DISABLED_SETTING = `AzureWebJobs.${GUARDED_FUNCTION}.Disabled`;

export interface ExtensionHarness {
  readonly azurite: AzuriteService;
  readonly arm: ArmServer;
  readonly smtp: SmtpSink;
  readonly bridge: WorkerBridge;
  /** The running host (a new one after `crashHost`). */
  readonly host: ExtensionHost;
  readonly http: FunctionsHttpServer;
  readonly app: ExtensionApp;
  /** Whether the guarded trigger is disabled in the app settings (what the Functions host reads). */
  isDisabled(): boolean;
  /** POST to one of the app's HTTP functions with the function key. */
  callApi(path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** The real durable-functions client on the extension's binding data (what the app's functions get). */
  client(): df.DurableClient;
  /** Runs the watchdog timer function once, as the host's timer would. */
  runWatchdog(): Promise<void>;
  approvalLinks(): string[];
  approve(link: string, approver: string): ReturnType<typeof approveLikeAPerson>;
  /**
   * Kills the host process (SIGKILL, as a crash or a Recreate restart does) and starts a new one on the
   * same task hub and storage; the app's functions get the new host's client binding data from then on.
   */
  crashHost(): Promise<void>;
  close(): Promise<void>;
}

export interface ExtensionHarnessOptions {
  readonly settings?: Record<string, string>;
  readonly bridge?: WorkerBridgeOptions;
  /**
   * `storageProvider.workItemQueueVisibilityTimeout` of the host (the extension's default is 5 minutes):
   * how long an activity's message stays invisible after a host took it, so after a crash how long until
   * another host runs it again. Only the crash scenario shortens it.
   */
  readonly workItemVisibility?: string;
}

export async function startExtensionHarness(
  options: ExtensionHarnessOptions = {},
): Promise<ExtensionHarness> {
  const closers: (() => Promise<void>)[] = [];
  try {
    const azurite = await startAzuriteOnLoadedMachine();
    closers.push(azurite.stop);
    const cert = makeSelfSignedCert();
    const arm = await startArmServer(cert, EXTENSION_SITE);
    closers.push(() => arm.close());
    arm.setSettings({ FUNCTIONS_WORKER_RUNTIME: 'node' });
    const smtp = await startSmtpSink();
    closers.push(() => smtp.close());
    const clientRef: { data?: Record<string, unknown> } = {};
    const http = await startFunctionsHttpServer({
      functionKey: FUNCTION_KEY,
      extraInputs: () => ({ durableClient: clientRef.data }),
    });
    closers.push(() => http.close());
    const app = await loadAppForExtension({
      storageConnectionString: azurite.connectionString,
      smtpPort: smtp.port,
      publicBaseUrl: http.baseUrl,
      armUrl: arm.url,
      ca: cert.cert,
      ...(options.settings ? { settings: options.settings } : {}),
    });
    closers.push(() => app.runtime.breakerStore.close());
    const bridge = await startWorkerBridge(options.bridge);
    closers.push(() => bridge.close());
    const taskHub = `bw${randomBytes(4).toString('hex')}`;
    const startHost = () =>
      startExtensionHost({
        storageConnectionString: azurite.connectionString,
        bridgeUrl: bridge.url,
        taskHub,
        ...(options.workItemVisibility ? { workItemVisibility: options.workItemVisibility } : {}),
      });
    let host = await startHost();
    closers.push(() => host.stop());
    clientRef.data = host.clientData;
    const clientInput = (functionName: string) => [
      {
        name: bindingOfType(functionName, 'durableClient').name,
        data: { string: JSON.stringify(clientRef.data) },
      },
    ];
    return {
      azurite,
      arm,
      smtp,
      bridge,
      get host() {
        return host;
      },
      http,
      app,
      isDisabled: () => arm.settings()[DISABLED_SETTING]?.toLowerCase() === 'true',
      async callApi(path, body) {
        const response = await fetch(`${http.baseUrl}/api/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-functions-key': FUNCTION_KEY },
          body: JSON.stringify(body ?? {}),
        });
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
      },
      async runWatchdog() {
        await invokeRpc('BreakerWatchdog', {
          trigger: { json: JSON.stringify({ isPastDue: false }) },
          inputData: clientInput('BreakerWatchdog'),
        });
      },
      client() {
        const input = df.input.durableClient();
        const context = new InvocationContext({ functionName: 'harness', options: { extraInputs: [input] } });
        context.extraInputs.set(input, host.clientData);
        return df.getClient(context);
      },
      approvalLinks: () => approvalLinksIn(smtp),
      approve: (link, approver) => approveLikeAPerson(link, approver),
      async crashHost() {
        await host.kill();
        host = await startHost();
        clientRef.data = host.clientData;
      },
      async close() {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/**
 * Azurite gets 45 s to listen; on a machine shared with other runs that is sometimes not enough. The
 * scenarios take minutes anyway, so a start that timed out is tried again (twice at most), and said.
 */
async function startAzuriteOnLoadedMachine(): Promise<AzuriteService> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAzurite();
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !/nothing listened/.test(error.message)) throw error;
      process.stderr.write(`Azurite did not start (${error.message}); trying again\n`);
    }
  }
}
