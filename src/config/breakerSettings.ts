import { integer, oneOf, text } from './settingKinds';

/** Settings of the breaker: its store, threshold and window, probation, and the trigger switch through ARM. */
export const breakerSettings = {
  BREAKER_STORE: oneOf(['table', 'redis'] as const, {
    description: 'Where the shared failure window and breaker state live.',
    default: 'table',
    example: 'table',
  }),
  REDIS_CONNECTION: text({
    description:
      'Redis URL (redis:// or rediss://), required when BREAKER_STORE=redis. With REDIS_AUTH=entra: rediss://<identity object id>@<host>:10000, no password.',
    example: 'redis://localhost:6379',
    pattern: /^rediss?:\/\/.+/,
    expects: 'a redis:// or rediss:// URL',
    secret: true,
  }),
  BREAKER_THRESHOLD: integer({
    description: 'The breaker trips when failures in the window exceed this number.',
    default: '100',
    example: '100',
    min: 1,
    max: 1_000_000,
  }),
  BREAKER_WINDOW_SECONDS: integer({
    description: 'Length of the rolling failure window.',
    default: '30',
    example: '30',
    min: 2,
    max: 3_600,
  }),
  BREAKER_BUCKET_SECONDS: integer({
    description: 'Width of one time bucket of the window; must divide the window.',
    default: '1',
    example: '1',
    min: 1,
    max: 600,
  }),
  BREAKER_PROBATION_THRESHOLD: integer({
    description: 'Lower threshold while HALF_OPEN after a restart: more failures than this trip again.',
    default: '10',
    example: '10',
    min: 0,
    max: 1_000_000,
  }),
  BREAKER_PROBATION_SECONDS: integer({
    description: 'Quiet time in HALF_OPEN before the breaker closes.',
    default: '300',
    example: '300',
    min: 1,
    max: 86_400,
  }),
  BREAKER_STATE_CACHE_MS: integer({
    description: 'How long one instance caches the breaker state between reads (bounds the stop delay).',
    default: '1000',
    example: '1000',
    min: 0,
    max: 60_000,
  }),
  BREAKER_TABLE_NAME: text({
    description: 'Table holding the failure buckets and breaker state when BREAKER_STORE=table.',
    default: 'BreakerState',
    example: 'BreakerState',
    pattern: /^[A-Za-z][A-Za-z0-9]{2,62}$/,
    expects: 'a table name: a letter then 2 to 62 letters or digits',
  }),

  TRIGGER_CONTROL: oneOf(['arm', 'local'] as const, {
    description:
      'How the trigger is switched off: arm (app setting through Azure Resource Manager) or local (soft OPEN only). ' +
      'Defaults to arm in Azure and local elsewhere.',
    example: 'local',
  }),
  AZURE_SUBSCRIPTION_ID: text({
    description: 'Subscription of the function app; auto-detected from WEBSITE_OWNER_NAME in Azure.',
    example: '00000000-0000-0000-0000-000000000000',
    pattern: /^[0-9a-fA-F-]{36}$/,
    expects: 'a subscription GUID',
  }),
  AZURE_RESOURCE_GROUP: text({
    description: 'Resource group of the function app; auto-detected from WEBSITE_RESOURCE_GROUP in Azure.',
    example: 'rg-breakwater',
  }),
  AZURE_FUNCTIONAPP_NAME: text({
    description: 'Name of the function app; auto-detected from WEBSITE_SITE_NAME in Azure.',
    example: 'func-breakwater',
  }),
  AZURE_CLIENT_ID: text({
    description: 'Client id of the user-assigned managed identity used for ARM, Storage, Redis and email.',
    example: '00000000-0000-0000-0000-000000000000',
  }),
} as const;
