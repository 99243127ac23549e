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
