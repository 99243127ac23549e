import { RestError } from '@azure/core-rest-pipeline';
import { QueueServiceClient } from '@azure/storage-queue';

import { createRuntime, installRuntime, type Runtime } from '../../../src/composition/runtime';
import type { DeadLetterMessage } from '../../../src/processing/blobQueueDeadLetterStore';
import { localAppEnv } from '../../support/localAppEnv';
import { type ArmServer, startArmServer, staticTokenCredential } from '../../support/armServer';
import { bindingOfType, invokeRpc } from '../../support/fakeFunctionsCore';
import { type FunctionsHttpServer, startFunctionsHttpServer } from '../../support/functionsHttpServer';
import { makeSelfSignedCert } from '../../support/selfSignedCert';
import { type SmtpSink, startSmtpSink } from '../../support/smtpSink';
import { DurableBackend } from './durableBackend';
import { SimClock } from './simClock';

export const FUNCTION_NAME = 'ProcessSensorEvents';
export const DISABLED_SETTING = `AzureWebJobs.${FUNCTION_NAME}.Disabled`;
export const FUNCTION_KEY = 'e2e-function-key';
const site = {
  subscriptionId: '00000000-0000-0000-0000-0000000000e2',
  resourceGroup: 'rg-e2e',
  siteName: 'func-e2e',
};

/** One successful sink write, as the downstream saw it. */
export interface SinkWrite {
  readonly partitionId: string;
  readonly sequenceNumber: number;
  readonly run: string;
  readonly at: number;
}

export interface WorldOptions {
  /** Azurite (or any storage account) for the sink, dead letters and the Table breaker store. */
  readonly storageConnectionString: string;
  /** Settings that differ from the end-to-end defaults. */
  readonly settings?: Record<string, string>;
}

/**
 * The whole app wired as in Azure, on this machine: the real function handlers registered through the
 * programming model; a runtime with a simulation clock; the breaker store on Azurite (Table) or Redis;
 * the real ARM client against a local HTTPS ARM; real SMTP; the real durable-functions engine behind a
 * local management API; the HTTP functions on a local port. The downstream sink is the real Table sink
 * behind a switch that answers 503 while `downstreamDown` is true.
 */
export class BreakwaterWorld {
  private constructor(
    readonly clock: SimClock,
    private readonly downstream: { down: boolean },
    readonly writes: SinkWrite[],
    readonly env: Record<string, string>,
    readonly runtime: Runtime,
    readonly arm: ArmServer,
    readonly smtp: SmtpSink,
    readonly durable: DurableBackend,
    readonly http: FunctionsHttpServer,
  ) {}

  /** While true the sink answers 503: the downstream outage. */
  get downstreamDown(): boolean {
    return this.downstream.down;
  }
  set downstreamDown(down: boolean) {
    this.downstream.down = down;
  }

  static async create(options: WorldOptions): Promise<BreakwaterWorld> {
    const clock = new SimClock(Date.UTC(2026, 0, 1));
    const downstream = { down: false };
    const cert = makeSelfSignedCert();
    const arm = await startArmServer(cert, site);
    arm.setSettings({ FUNCTIONS_WORKER_RUNTIME: 'node', UNRELATED_SETTING: 'kept' });
    const smtp = await startSmtpSink();
    const durable = new DurableBackend(clock);
    await durable.start();
    const http = await startFunctionsHttpServer({
      functionKey: FUNCTION_KEY,
      extraInputs: () => ({ durableClient: durable.clientData }),
    });
    const env = localAppEnv(options.storageConnectionString, 'e2e', {
      BREAKER_THRESHOLD: '20',
      BREAKER_WINDOW_SECONDS: '10',
      BREAKER_BUCKET_SECONDS: '1',
      BREAKER_PROBATION_THRESHOLD: '5',
      BREAKER_PROBATION_SECONDS: '60',
      BREAKER_STATE_CACHE_MS: '1000',
      EVENT_MAX_ATTEMPTS: '2',
      TRIGGER_RETRY_MIN_INTERVAL_SECONDS: '1',
      TRIGGER_RETRY_MAX_INTERVAL_SECONDS: '4',
      TRIGGER_CONTROL: 'arm',
      AZURE_SUBSCRIPTION_ID: site.subscriptionId,
      AZURE_RESOURCE_GROUP: site.resourceGroup,
      AZURE_FUNCTIONAPP_NAME: site.siteName,
      EMAIL_PROVIDER: 'smtp',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      APPROVERS: 'oncall@example.com',
      APPROVAL_REMINDER_MINUTES: '10',
      APPROVAL_MAX_REMINDERS: '2',
      PUBLIC_BASE_URL: http.baseUrl,
      ...options.settings,
    });
    const writes: SinkWrite[] = [];
    const runtime = createRuntime(env, {
      clock,
      decorateSink: (real) => ({
        write: async (reading, event, signal) => {
          if (downstream.down) throw new RestError('downstream unavailable', { statusCode: 503 });
          const result = await real.write(reading, event, signal);
          writes.push({
            partitionId: event.partitionId ?? '?',
            sequenceNumber: event.sequenceNumber ?? -1,
            run: String(event.properties.run),
            at: clock.now(),
          });
          return result;
        },
        probe: async (signal) => {
          if (downstream.down) throw new RestError('downstream unavailable', { statusCode: 503 });
          await real.probe(signal);
        },
      }),
      notifyAndControl: {
        getCredential: () => staticTokenCredential,
        overrides: { armEndpoint: arm.url, tls: { ca: cert.cert } },
      },
    });
    installRuntime(runtime);
    await import('../../../src/functions/processSensorEvents');
    await import('../../../src/functions/breakerOrchestration');
    await import('../../../src/functions/breakerWatchdog');
    await import('../../../src/functions/approval');
    await import('../../../src/functions/operatorApi');
    return new BreakwaterWorld(clock, downstream, writes, env, runtime, arm, smtp, durable, http);
  }

  /** Whether the trigger is disabled according to the app settings (what the host reads). */
  isDisabled(): boolean {
    return this.arm.settings()[DISABLED_SETTING]?.toLowerCase() === 'true';
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
    return this.smtp.received.flatMap(
      (m) => /(https?:\/\/\S+\/api\/approve\?token=[A-Za-z0-9._~-]+)/.exec(m.text ?? '')?.[1] ?? [],
    );
  }

  /** Opens the emailed link (GET, which changes nothing), then submits the form like a person would. */
  async approve(
    link: string,
    approver: string,
  ): Promise<{ getStatus: number; postStatus: number; page: string }> {
    const get = await fetch(link);
    await get.text();
    const token = new URL(link).searchParams.get('token') ?? '';
    const post = await fetch(new URL('approve', link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // Scenario operators approve at a planned time whatever the downstream probe says ("approve
      // anyway"); the gate itself is checked by the approval page and browser tests.
      body: new URLSearchParams({ token, approver, anyway: 'yes' }).toString(),
    });
    return { getStatus: get.status, postStatus: post.status, page: await post.text() };
  }

  /** Dead letters in the queue (read and removed). */
  async drainDeadLetters(): Promise<DeadLetterMessage[]> {
    const queue = QueueServiceClient.fromConnectionString(this.env.AzureWebJobsStorage ?? '').getQueueClient(
      this.env.DEAD_LETTER_QUEUE ?? '',
    );
    await queue.createIfNotExists();
    const out: DeadLetterMessage[] = [];
    for (;;) {
      const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 32 });
      if (receivedMessageItems.length === 0) return out;
      for (const m of receivedMessageItems) {
        out.push(JSON.parse(Buffer.from(m.messageText, 'base64').toString()) as DeadLetterMessage);
        await queue.deleteMessage(m.messageId, m.popReceipt);
      }
    }
  }

  async close(): Promise<void> {
    await this.durable.close();
    await Promise.all([
      this.http.close(),
      this.smtp.close(),
      this.arm.close(),
      this.runtime.breakerStore.close(),
    ]);
  }
}
