/**
 * The app as the harness runs it: the real function modules registered through the simulator's functions
 * core, on the system clock (the extension's timers are real), with settings small enough for a run to
 * take seconds (the reminder interval cannot go below the setting's minimum of one minute).
 */
import type { Runtime } from '../../src/composition/runtime';
import { staticTokenCredential } from '../azure/armServer';
import { makeAppLoader } from '../host/appLoader';
import { e2eEnv } from '../world/worldParts';

export const EXTENSION_SITE = {
  subscriptionId: '00000000-0000-0000-0000-0000000000d7',
  resourceGroup: 'rg-durable',
  siteName: 'func-durable',
} as const;

export const GUARDED_FUNCTION = 'ProcessSensorEvents';

export interface ExtensionAppParts {
  readonly storageConnectionString: string;
  readonly smtpPort: number;
  readonly publicBaseUrl: string;
  readonly armUrl: string;
  readonly ca: string;
  readonly settings?: Record<string, string>;
}

export interface ExtensionApp {
  readonly env: Record<string, string>;
  readonly runtime: Runtime;
}

export async function loadAppForExtension(parts: ExtensionAppParts): Promise<ExtensionApp> {
  const env = e2eEnv(parts.storageConnectionString, EXTENSION_SITE, parts.smtpPort, parts.publicBaseUrl, {
    BREAKER_PROBATION_SECONDS: '3',
    APPROVAL_REMINDER_MINUTES: '1',
    APPROVAL_MAX_REMINDERS: '1',
    ...parts.settings,
  });
  const loader = makeAppLoader(env, {
    endpoints: { credential: staticTokenCredential, arm: { url: parts.armUrl, ca: parts.ca } },
  });
  return { env, runtime: await loader.load() };
}
