import type { ConfigProblem } from './configError';
import type { SettingValues } from './settingValues';
import { settings } from './settings';

/**
 * Signing keys this repository publishes as examples (local.settings.json.example, the settings
 * catalogue and so docs/configuration.md, the local test and demo settings). Anyone with the
 * repository could sign approval links with them, so start-up refuses them when running in Azure.
 */
export const PUBLISHED_SIGNING_KEYS: ReadonlySet<string> = new Set([
  'local-dev-only-signing-key-change-me-0123456789',
  'test-signing-key-0123456789abcdef0123456789',
  settings.APPROVAL_SIGNING_KEY.example,
  settings.APPROVAL_SIGNING_KEY_PREVIOUS.example,
]);

/** Problems for published keys in the signing-key settings (checked when running in Azure). */
export function publishedKeyProblems(v: Pick<SettingValues, SigningKeySetting>): ConfigProblem[] {
  return SIGNING_KEY_SETTINGS.flatMap((setting) => {
    const key = v[setting];
    if (key === undefined || !PUBLISHED_SIGNING_KEYS.has(key)) return [];
    return [
      {
        setting,
        message:
          'is an example key published with Breakwater: anyone could sign approval links with it. ' +
          'Generate one, e.g. openssl rand -base64 48',
      },
    ];
  });
}

const SIGNING_KEY_SETTINGS = ['APPROVAL_SIGNING_KEY', 'APPROVAL_SIGNING_KEY_PREVIOUS'] as const;
type SigningKeySetting = (typeof SIGNING_KEY_SETTINGS)[number];
