import type { ConfigProblem } from './errors';
import { type SettingName, settings } from './settings';
import type { SettingValues } from './settingValues';

/**
 * Every setting that holds a key the app signs with (approval links, webhooks): the catalogue marks them
 * with the `signingKey` kind, so a new one is covered the day it is added.
 */
export const SIGNING_KEY_SETTINGS: readonly SettingName[] = (
  Object.entries(settings) as [SettingName, (typeof settings)[SettingName]][]
)
  .filter(([, spec]) => 'signingKey' in spec && spec.signingKey === true)
  .map(([name]) => name);

/**
 * Signing keys this repository publishes as examples (local.settings.json.example, the settings
 * catalogue and so docs/configuration.md, the local test and demo settings). Anyone with the
 * repository could sign approval links or webhook notices with them, so start-up refuses them in any
 * signing-key setting when running in Azure.
 */
export const PUBLISHED_SIGNING_KEYS: ReadonlySet<string> = new Set([
  'local-dev-only-signing-key-change-me-0123456789',
  'test-signing-key-0123456789abcdef0123456789',
  ...SIGNING_KEY_SETTINGS.map((name) => settings[name].example),
]);

/** Problems for published keys in the signing-key settings (checked when running in Azure). */
export function publishedKeyProblems(v: Pick<SettingValues, SettingName>): ConfigProblem[] {
  return SIGNING_KEY_SETTINGS.flatMap((setting) => {
    const key = v[setting];
    if (typeof key !== 'string' || !PUBLISHED_SIGNING_KEYS.has(key)) return [];
    return [
      {
        setting,
        message:
          'is an example key published with Breakwater: anyone could forge what it signs with it. ' +
          'Generate one, e.g. openssl rand -base64 48',
      },
    ];
  });
}
