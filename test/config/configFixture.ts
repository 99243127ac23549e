import { ConfigError } from '../../src/config/errors';
import { loadConfig } from '../../src/config/loadConfig';

/** The fewest settings a local start needs; tests spread their own on top. */
export const minimal = {
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  EventHubConnection:
    'Endpoint=sb://localhost;SharedAccessKeyName=k;SharedAccessKey=v;UseDevelopmentEmulator=true;',
  EVENTHUB_NAME: 'sensor-readings',
  APPROVAL_SIGNING_KEY: 'a-signing-key-of-at-least-32-characters!',
};

/** The problems start-up reports for `env`, as `SETTING: message`; fails the test if it starts. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.setting}: ${p.message}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}
