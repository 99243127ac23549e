import { webhookFormats } from '../notify/webhook/webhookBodies';
import { boolean, httpUrl, oneOf, signingKey, text } from './settingKinds';

/**
 * The operations part of the settings catalogue (spread into `settings` in settings.ts, the one
 * catalogue); read and cross-checked by operationsConfig.ts.
 */
export const operationsSettings = {
  WEBHOOK_URL: httpUrl({
    description:
      'Webhook that receives every breaker notice beside the email (on-call paging, Teams, Slack); unset = no webhook. ' +
      'Kept secret: Teams and Slack webhook URLs are credentials.',
    example: 'https://hooks.example.com/breakwater',
    secret: true,
  }),
  WEBHOOK_FORMAT: oneOf(webhookFormats, {
    description:
      'Body of the webhook: json (the generic signed payload), teams (an Adaptive Card message for a Teams Workflows webhook) or slack (an incoming-webhook message).',
    default: 'json',
    example: 'json',
  }),
  WEBHOOK_SIGNING_KEY: signingKey({
    description:
      'HMAC-SHA256 key that signs each webhook (X-Breakwater-Signature); required for WEBHOOK_FORMAT=json, optional for teams and slack.',
    example: 'generate-with-openssl-rand-base64-48-yyyyyyyyyyyyyyyy',
  }),
  APPROVAL_REQUIRE_SIGNED_IN: boolean({
    description:
      'Only a user signed in through App Service authentication whose name is in APPROVERS may approve a restart. ' +
      'Turn on only with App Service authentication enabled (infra parameter enableAppServiceAuth).',
    default: 'false',
    example: 'false',
  }),
  REDIS_AUTH: oneOf(['url', 'entra'] as const, {
    description:
      'How the breaker reaches Redis: url (credentials, if any, in REDIS_CONNECTION) or entra (Azure Managed Redis with the managed identity: a Microsoft Entra token as the password, renewed before it expires).',
    default: 'url',
    example: 'url',
  }),
  MAINTENANCE_CONTAINER: text({
    description:
      'Blob container (in AzureWebJobsStorage) holding the maintenance-mode record: who stopped the trigger on purpose, why and since when, and the ended ones.',
    default: 'breakwater-maintenance',
    example: 'breakwater-maintenance',
    pattern: /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/,
    expects: 'a container name: 3 to 63 lowercase letters, digits and single dashes',
  }),
} as const;
