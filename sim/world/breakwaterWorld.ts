import type { ParsedMail } from 'mailparser';

import type { Runtime } from '../../src/composition/runtime';
import type { SinkKind } from '../../src/config/sinkSettings';
import { readSwitch } from '../../src/control/switchReading';
import type { DeadLetterMessage } from '../../src/deadLetters/deadLetterMessage';
import { type AcsServer, startAcsServer } from '../azure/acsServer';
import { type ArmServer, startArmServer } from '../azure/armServer';
import { type SmtpSink, startSmtpSink } from '../azure/smtpSink';
import { DurableBackend, type StartConflict } from '../durable/durableBackend';
import { makeAppLoader } from '../host/appLoader';
import { bindingOfType, invokeRpc } from '../host/fakeFunctionsCore';
import { type FunctionsHttpServer, startFunctionsHttpServer } from '../host/functionsHttpServer';
import { checkedRetentionMs, deployedRetentionMs } from '../host/hubRetention';
import { SimClock } from '../host/simClock';
import { makeSelfSignedCert } from '../net/selfSignedCert';
import type { SinkCall, WriteRefusal } from './downstream';
import {
  approvalLinksIn,
  approveLikeAPerson,
  drainDeadLetterQueue,
  maintenanceRequest,
} from './operatorActions';
import { SavedFaults } from './savedFaults';
import { startWorldDownstream, type WorldDownstream } from './worldDownstream';
import { type AttachedHost, e2eEnv, e2eRuntimeOptions, type SinkWrite } from './worldParts';

export type { AttachedHost, SinkWrite } from './worldParts';
export const FUNCTION_NAME = 'ProcessSensorEvents';
export const DISABLED_SETTING = `AzureWebJobs.${FUNCTION_NAME}.Disabled`;
export const FUNCTION_KEY = 'e2e-function-key';
const site = {
  subscriptionId: '00000000-0000-0000-0000-0000000000e2',
  resourceGroup: 'rg-e2e',
  siteName: 'func-e2e',
};

export interface WorldOptions {
  /** Azurite (or any storage account) for the sink, dead letters and the Table breaker store. */
  readonly storageConnectionString: string;
  /** Settings that differ from the end-to-end defaults. */
  readonly settings?: Record<string, string>;
  /** How the durable backend decides a start over an existing instance (default `refuse`). */
  readonly startConflict?: StartConflict;
  /**
   * Forgets every loaded module (`vi.resetModules`), so a restart rebuilds the app's memory as a new
   * process would. Without it a restart keeps the app loaded (what `npm run demo` does).
   */
  readonly freshModules?: () => void;
  /** The downstream: the Table sink (default) or the HTTP sink against a local HTTP API. */
  readonly sink?: SinkKind;
  /** How a restart takes its time and durable timers fire (default: at once, on time). */
  readonly timing?: WorldTiming;
  /**
   * Where the simulation clock starts (ms since the epoch). Default 2026-01-01T00:00Z, fixed so tests
   * are repeatable; the demo starts at the real time of the run, so its pages and emails show today.
   */
  readonly startAt?: number;
  /**
   * The email provider: the SMTP sink (default) or the ACS stand-in (`world.acs`), whose accepted
   * sends land in the same inbox (`world.smtp.received`), so links and counts read one place.
   */
  readonly email?: 'smtp' | 'acs';
  /**
   * How long the hubs of this world's scenarios keep events (simulated ms); default the deployed hub's
   * retention (`eventHubRetentionDays` in infra/). A scenario may set its own (`retentionSeconds`).
   */
  readonly retentionMs?: number;
}

/**
 * Timing faults of the platform, drawn per restart, per killed activity or per timer. A run may swap
 * them (`world.timing = ...`); each is read when it applies.
 */
export interface WorldTiming {
  /** How long the old instances keep running after a settings write before the restart kills them. */
  readonly restartDelayMs?: () => number;
  /** How long a killed activity's message stays invisible before it runs again. */
  readonly redeliveryMs?: () => number;
  /** How much after (negative: before) its FireAt a durable timer fires. */
  readonly timerSkewMs?: () => number;
  /** Whether a TimerFired goes before an EventRaised that reach one episode together. */
  readonly timersFirst?: () => boolean;
}

/**
 * The whole app wired as in Azure, on this machine: the real function handlers registered through the
 * programming model; a runtime with a simulation clock; the breaker store on Azurite (Table) or Redis;
 * the real ARM client against a local HTTPS ARM; real SMTP; the real durable-functions engine behind a
 * local management API; the HTTP functions on a local port. The downstream is the real Table sink
 * behind a switch that answers 503 while `downstreamDown` is true, or the real HTTP sink against a local
 * HTTP API that resets every connection while it is down (`WorldOptions.sink`).
 */
export class BreakwaterWorld {
  private constructor(
    private readonly timingRef: { current: WorldTiming },
    readonly clock: SimClock,
    readonly downstream: WorldDownstream,
    readonly writes: SinkWrite[],
    readonly env: Record<string, string>,
    private current: Runtime,
    private readonly reloadApp: () => Promise<Runtime | undefined>,
    private readonly hostRef: { host?: AttachedHost },
    readonly arm: ArmServer,
    readonly smtp: SmtpSink,
    readonly durable: DurableBackend,
    readonly http: FunctionsHttpServer,
    /** How long the hubs of this world's scenarios keep events (simulated ms). */
    readonly retentionMs: number,
    /** Faults of the retention guard's saved events (storage down, a crash mid-save), off by default. */
    readonly savedFaults: SavedFaults,
  ) {}

  /** The platform's timing faults in force (read when each applies). */
  get timing(): WorldTiming {
    return this.timingRef.current;
  }
  set timing(timing: WorldTiming) {
    this.timingRef.current = timing;
  }

  /** The app's runtime of the current process (rebuilt by a restart). */
  get runtime(): Runtime {
    return this.current;
  }

  /** Runtimes of processes that ended; their clients close with the world. */
  private readonly retired: Runtime[] = [];

  /** The trigger's host model of the running scenario: the durable backend pauses during its restarts. */
  attachHost(host: AttachedHost): void {
    this.hostRef.host = host;
  }

  /** The app settings' version: each change restarts the host. */
  settingsVersion(): string {
    return settingsVersionOf(this.arm);
  }

  /** A new process: the app's modules, clients and caches are built afresh (when the world can). */
  async restartApp(): Promise<void> {
    const fresh = await this.reloadApp();
    if (!fresh) return;
    this.retired.push(this.current);
    this.current = fresh;
  }

  /** While true the downstream is out (503 in front of the table, or the HTTP API resets connections). */
  get downstreamDown(): boolean {
    return this.downstream.down;
  }
  set downstreamDown(down: boolean) {
    this.downstream.down = down;
  }

  /** Every call the downstream received, in order. */
  get sinkCalls(): readonly SinkCall[] {
    return this.downstream.calls;
  }

  /** A downstream fault besides the outage, e.g. one event it always refuses; undefined = none. */
  set refuseWrites(refuse: WriteRefusal | undefined) {
    this.downstream.refuse = refuse;
  }

  /** The version the downstream holds for `homeId/sensorId` (convergence checks). */
  heldVersion(key: string): Promise<string | undefined> {
    return this.downstream.heldVersion(this.env, key);
  }

  static async create(options: WorldOptions): Promise<BreakwaterWorld> {
    const clock = new SimClock(options.startAt ?? Date.UTC(2026, 0, 1));
    const downstream = await startWorldDownstream(options.sink ?? 'table');
    const cert = makeSelfSignedCert();
    const arm = await startArmServer(cert, site);
    arm.setSettings({ FUNCTIONS_WORKER_RUNTIME: 'node', UNRELATED_SETTING: 'kept' });
    const smtp = await startSmtpSink();
    const acs =
      options.email === 'acs'
        ? await startAcsServer(
            cert,
            () => clock.now(),
            (body) => smtp.received.push(acsMail(body)),
          )
        : undefined;
    const hostRef: { host?: AttachedHost } = {};
    const timing = { current: options.timing ?? {} };
    const appRef = { ready: () => Promise.resolve() };
    const durable = new DurableBackend(clock, {
      ...(options.startConflict ? { startConflict: options.startConflict } : {}),
      // Crashes and worker restarts end the worker's runs; a settings write kills them when its
      // restart lands (processed at the host's round), until then the old worker keeps running.
      workerGeneration: () => hostRef.host?.restarts.length ?? 0,
      restartLandsAt: () => hostRef.host?.restartLandsAt(),
      redeliveryMs: () => timing.current.redeliveryMs?.() ?? 0,
      timerSkewMs: () => timing.current.timerSkewMs?.() ?? 0,
      timersFirst: () => timing.current.timersFirst?.() ?? false,
      paused: () => hostRef.host?.workerDown === true,
      // A restart clears the registrations and loads the app again; work waits for that to finish.
      appReady: () => appRef.ready(),
    });
    await durable.start();
    const http = await startFunctionsHttpServer({
      functionKey: FUNCTION_KEY,
      extraInputs: () => ({ durableClient: durable.clientData }),
    });
    const env = e2eEnv(options.storageConnectionString, site, smtp.port, http.baseUrl, {
      ...downstream.settings,
      ...(acs ? { EMAIL_PROVIDER: 'acs', ACS_ENDPOINT: acs.url } : {}),
      ...options.settings,
    });
    const writes: SinkWrite[] = [];
    const savedFaults = new SavedFaults();
    const runtimeOptions = e2eRuntimeOptions({
      savedFaults,
      clock,
      downstream,
      writes,
      armUrl: arm.url,
      ca: cert.cert,
      acs: acs !== undefined,
      ...(options.retentionMs === undefined ? {} : { hubRetentionMs: options.retentionMs }),
    });
    const loader = makeAppLoader(env, runtimeOptions, options.freshModules);
    appRef.ready = () => loader.ready();
    const runtime = await loader.load();
    const world = new BreakwaterWorld(
      timing,
      clock,
      downstream,
      writes,
      env,
      runtime,
      () => loader.reload(),
      hostRef,
      arm,
      smtp,
      durable,
      http,
      checkedRetentionMs(options.retentionMs ?? deployedRetentionMs(), 'WorldOptions.retentionMs'),
      savedFaults,
    );
    world.acs = acs;
    return world;
  }

  /** The ACS stand-in when the world sends email through ACS (`WorldOptions.email`). */
  acs: AcsServer | undefined;

  /** Whether the trigger is disabled according to the app settings, read in every form the host reads. */
  isDisabled(): boolean {
    return readSwitch(this.arm.settings(), FUNCTION_NAME).disabled;
  }

  /** The durable client binding data, for invocations that take it as an extra input. */
  durableClientInput(functionName: string) {
    return [
      {
        name: bindingOfType(functionName, 'durableClient').name,
        data: { string: JSON.stringify(this.durable.clientData) },
      },
    ];
  }

  /**
   * Resolves once the breaker store answers again after a restart. The Redis client reconnects on its
   * own timer (real time), which the simulation clock cannot advance; bounded to 15 s.
   */
  async storeAnswers(): Promise<void> {
    const until = Date.now() + 15_000;
    for (;;) {
      try {
        await this.runtime.breakerStore.getState();
        return;
      } catch (error) {
        if (Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Watchdog runs that threw (the host logs a failed timer run and tries again on the next tick). */
  readonly watchdogFailures: string[] = [];

  /** Runs the watchdog timer function once, as the host would: a failure is recorded, not fatal. */
  async runWatchdog(): Promise<void> {
    try {
      await invokeRpc('BreakerWatchdog', {
        trigger: { json: JSON.stringify({ isPastDue: false }) },
        inputData: this.durableClientInput('BreakerWatchdog'),
      });
    } catch (error) {
      this.watchdogFailures.push(error instanceof Error ? error.message : String(error));
    }
  }

  /** Approval links found in the emails received so far, oldest first. */
  approvalLinks(): string[] {
    return approvalLinksIn(this.smtp);
  }

  /** Opens the emailed link, then submits the form like a person would ("approve anyway"). */
  approve(link: string, approver: string) {
    return approveLikeAPerson(link, approver);
  }

  /** Enters or leaves maintenance mode through the operator API, with the function key. */
  maintenance(body: Parameters<typeof maintenanceRequest>[2]) {
    return maintenanceRequest(this.http.baseUrl, FUNCTION_KEY, body);
  }

  /** Dead letters in the queue (read and removed). */
  drainDeadLetters(): Promise<DeadLetterMessage[]> {
    return drainDeadLetterQueue(this.env);
  }

  async close(): Promise<void> {
    await this.durable.close();
    await Promise.all([
      this.http.close(),
      this.smtp.close(),
      this.arm.close(),
      this.acs?.close(),
      ...[this.current, ...this.retired].map((r) => r.breakerStore.close()),
      this.downstream.close(),
    ]);
  }
}

/** An ACS send's body as the inbox holds mail (subject and text: what links and counts read). */
function acsMail(body: unknown): ParsedMail {
  const content = (body as { content?: { subject?: string; plainText?: string } }).content;
  return { subject: content?.subject, text: content?.plainText } as ParsedMail;
}

const settingsVersionOf = (arm: ArmServer) =>
  JSON.stringify(Object.entries(arm.settings()).sort(([a], [b]) => a.localeCompare(b)));
