import type { RuntimeOptions } from '../../src/composition/runtime';
import type { SavedEvents } from '../../src/retention/savedEvents';
import { staticTokenCredential } from '../azure/armServer';
import { localAppEnv } from '../host/localAppEnv';
import type { SimClock } from '../host/simClock';
import type { SavedFaults } from './savedFaults';
import type { SinkWrite, WorldDownstream } from './worldDownstream';

export type { SinkWrite } from './worldDownstream';

/** What the world needs to know of the host model that runs the trigger (attached per scenario). */
export interface AttachedHost {
  /** The restart after a settings change has killed the old instances and not yet started the new ones. */
  readonly workerDown: boolean;
  /** When the pending restart kills the old instances; undefined with none pending. */
  restartLandsAt(): number | undefined;
  /** Changes with every restart of the host or a worker. */
  readonly restarts: readonly unknown[];
}

/** The app settings of an end-to-end world: small numbers so a run trips and recovers in minutes. */
export function e2eEnv(
  storageConnectionString: string,
  site: { readonly subscriptionId: string; readonly resourceGroup: string; readonly siteName: string },
  smtpPort: number,
  publicBaseUrl: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return localAppEnv(storageConnectionString, 'e2e', {
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
    SMTP_PORT: String(smtpPort),
    APPROVERS: 'oncall@example.com',
    APPROVAL_REMINDER_MINUTES: '10',
    APPROVAL_MAX_REMINDERS: '2',
    PUBLIC_BASE_URL: publicBaseUrl,
    ...overrides,
  });
}

/**
 * Runtime options of the world: the simulation clock, local ARM with its certificate, and the real
 * sink behind the world's downstream switch (worldDownstream.ts); every successful write is recorded
 * with the instance and invocation that made it.
 */
export function e2eRuntimeOptions(parts: {
  readonly clock: SimClock;
  readonly downstream: WorldDownstream;
  readonly writes: SinkWrite[];
  readonly armUrl: string;
  readonly ca: string;
  /** The ACS stand-in serves under the same certificate. */
  readonly acs?: boolean;
  /** The world's hub retention when it was given: the app keeps the same deadline. */
  readonly hubRetentionMs?: number;
  /** Faults of the retention guard's saved events, switched while a run goes on. */
  readonly savedFaults?: SavedFaults;
}): RuntimeOptions {
  const { clock, downstream, writes } = parts;
  return {
    ...(parts.hubRetentionMs === undefined ? {} : { hubRetentionMs: parts.hubRetentionMs }),
    clock,
    decorateSink: (real) => downstream.decorate(real, writes, clock),
    ...(parts.savedFaults === undefined
      ? {}
      : { decorateSaved: (saved: SavedEvents) => parts.savedFaults?.decorate(saved) ?? saved }),
    endpoints: {
      credential: staticTokenCredential,
      arm: { url: parts.armUrl, ca: parts.ca },
      ...(parts.acs === true ? { acsCa: parts.ca } : {}),
    },
  };
}
