import type { WebhookConfig } from '../notify/webhook/webhookSender';
import type { ConfigProblem } from './errors';
import type { SettingName, settings } from './settings';

/** Settings values as `loadConfig` parsed them (undefined: unset and no default). */
type Values = { readonly [K in SettingName]?: ReturnType<(typeof settings)[K]['schema']['parse']> };

/** The operations part of the config: second notification channel, approver sign-in, Redis auth. */
export interface OperationsConfig {
  readonly webhook: WebhookConfig | undefined;
  /** APPROVAL_REQUIRE_SIGNED_IN: the approval POST needs an App Service principal listed in APPROVERS. */
  readonly requireSignedInApprover: boolean;
  readonly redisAuth: 'url' | 'entra';
  /** MAINTENANCE_CONTAINER: where maintenance mode is recorded. */
  readonly maintenanceContainer: string;
}

/**
 * Reads and cross-checks the operations settings. A json webhook without a signing key is refused: its
 * receiver could not tell our notices from anyone else's. Entra auth for Redis needs TLS (Azure Managed
 * Redis only accepts it) and no password in the URL (the token is the password). Signed-in approvers
 * need App Service authentication in front of the app.
 */
export function readOperationsConfig(
  v: Values,
  env: Readonly<Record<string, string | undefined>>,
  problems: ConfigProblem[],
): OperationsConfig | undefined {
  const before = problems.length;
  // In Azure the platform says whether App Service authentication is on (WEBSITE_AUTH_ENABLED=True).
  // Without it a client could send the principal headers itself, so the requirement would mean nothing.
  const inAzure = (env.WEBSITE_SITE_NAME ?? '').trim() !== '';
  if (v.APPROVAL_REQUIRE_SIGNED_IN === true && inAzure && env.WEBSITE_AUTH_ENABLED?.toLowerCase() !== 'true')
    problems.push({
      setting: 'APPROVAL_REQUIRE_SIGNED_IN',
      message:
        'needs App Service authentication on this app (WEBSITE_AUTH_ENABLED is not True): deploy with enableAppServiceAuth',
    });
  // In Azure the notice (and a Teams or Slack URL, itself a credential) must not travel in clear.
  if (v.WEBHOOK_URL !== undefined && inAzure && !v.WEBHOOK_URL.toLowerCase().startsWith('https://'))
    problems.push({
      setting: 'WEBHOOK_URL',
      message:
        'must be https:// when running in Azure: over http:// the notice and the URL (a credential for Teams and Slack) travel in clear',
    });
  const format = v.WEBHOOK_FORMAT ?? 'json';
  if (v.WEBHOOK_URL !== undefined && format === 'json' && v.WEBHOOK_SIGNING_KEY === undefined)
    problems.push({
      setting: 'WEBHOOK_SIGNING_KEY',
      message: 'is required when WEBHOOK_URL is set with WEBHOOK_FORMAT=json (receivers verify it)',
    });
  const redisAuth = v.REDIS_AUTH ?? 'url';
  if (redisAuth === 'entra' && v.BREAKER_STORE === 'redis' && v.REDIS_CONNECTION !== undefined) {
    const url = URL.canParse(v.REDIS_CONNECTION) ? new URL(v.REDIS_CONNECTION) : undefined;
    if (url?.protocol !== 'rediss:' || url.password !== '')
      problems.push({
        setting: 'REDIS_CONNECTION',
        message:
          'must be rediss://<host>:<port> without a password when REDIS_AUTH=entra (the Entra token is the password)',
      });
  }
  if (problems.length > before) return undefined;
  // Has a default, so it is always there once validated.
  const maintenanceContainer = v.MAINTENANCE_CONTAINER;
  if (maintenanceContainer === undefined) throw new Error('internal: MAINTENANCE_CONTAINER has a default');
  return {
    webhook:
      v.WEBHOOK_URL === undefined
        ? undefined
        : { url: v.WEBHOOK_URL, format, signingKey: v.WEBHOOK_SIGNING_KEY },
    requireSignedInApprover: v.APPROVAL_REQUIRE_SIGNED_IN ?? false,
    redisAuth,
    maintenanceContainer,
  };
}
