import { outagePolicies } from '../processing/batchDecision';
import { orderingModes } from '../processing/ordering';
import { faultSwitchSettings } from '../faults/faultSwitchSettings';
import { operationsSettings } from './operationsSettings';
import { baseUrl, boolean, emailAddress, emailList, integer, oneOf, text } from './settingKinds';
import { sinkSettings } from './sinkSettings';

/**
 * Every app setting Breakwater reads: the one source of truth for names, defaults and meaning.
 * README's configuration table, `local.settings.json.example` and the Bicep app settings are
 * checked against this catalogue by tests.
 *
 * Settings the Functions host reads itself (AzureWebJobsStorage, the Event Hubs connection
 * `EventHubConnection` or `EventHubConnection__fullyQualifiedNamespace`) are validated in
 * `loadConfig` because their shape depends on whether identity-based connections are used.
 */
export const settings = {
  EVENTHUB_NAME: text({
    description: 'Event Hub the trigger consumes (binding expression %EVENTHUB_NAME%).',
    example: 'sensor-readings',
  }),
  EVENTHUB_CONSUMER_GROUP: text({
    description: 'Consumer group of this app (binding expression %EVENTHUB_CONSUMER_GROUP%).',
    default: '$Default',
    example: 'breakwater',
  }),
  EVENTHUB_RETENTION_HOURS: integer({
    description:
      "The hub's message retention: the approval page and emails show how long before the oldest held event " +
      'is dropped. Event Hubs does not report it over AMQP, so set it to what the hub is configured with.',
    default: '168',
    example: '168',
    min: 1,
    max: 2_160,
  }),
  ENVIRONMENT_NAME: text({
    description:
      'Name of this deployment, shown on every page and in every email subject; defaults to the function app ' +
      'name in Azure and "local" elsewhere.',
    example: 'breakwater-prod',
    pattern: /^[\w .:-]{1,40}$/,
    expects: 'up to 40 letters, digits, spaces and . _ : -',
  }),

  EVENT_MAX_ATTEMPTS: integer({
    description: 'Attempts per event against the sink before it counts as failed (1 = no retry).',
    default: '4',
    example: '4',
    min: 1,
    max: 20,
  }),
  EVENT_RETRY_INITIAL_DELAY_MS: integer({
    description: 'First backoff delay between attempts of one event; grows exponentially with jitter.',
    default: '200',
    example: '200',
    min: 0,
    max: 60_000,
  }),
  EVENT_RETRY_MAX_DELAY_MS: integer({
    description: 'Upper bound of one backoff delay between attempts of one event.',
    default: '5000',
    example: '5000',
    min: 0,
    max: 300_000,
  }),
  BATCH_DEADLINE_MS: integer({
    description:
      'Time budget of one invocation for sink attempts; events not settled by then count as failed. ' +
      "At most host.json's functionTimeout (10 min) less 1 min, so dead letters are written before the host gives up.",
    default: '120000',
    example: '120000',
    min: 1_000,
    // host.json functionTimeout 00:10:00 less one minute for the store round trip and dead letters;
    // a test keeps the two in step.
    max: 540_000,
    expects:
      "a whole number from 1000 to 540000 (host.json's functionTimeout of 10 min, less 1 min to dead-letter)",
  }),
  TRIGGER_RETRY_MAX_COUNT: integer({
    description:
      'Host retry policy of the trigger: re-runs of a held batch. -1 (forever) is what keeps the checkpoint ' +
      'from advancing while the circuit is open; a finite count dead-letters the batch on the last run.',
    default: '-1',
    example: '-1',
    min: -1,
    max: 1_000,
  }),
  TRIGGER_RETRY_MIN_INTERVAL_SECONDS: integer({
    description: 'Host retry policy: first delay before a held batch is re-run.',
    default: '5',
    example: '5',
    min: 1,
    max: 900,
  }),
  TRIGGER_RETRY_MAX_INTERVAL_SECONDS: integer({
    description: 'Host retry policy: longest delay between re-runs (Microsoft advises under a minute).',
    default: '30',
    example: '30',
    min: 1,
    max: 900,
  }),
  OUTAGE_POLICY: oneOf(outagePolicies, {
    description:
      'What outage-like failures (timeouts, network errors, 408/429/5xx, 401/403) do: hold re-runs the batch ' +
      'behind the checkpoint, so an outage dead-letters nothing; dead-letter keeps the stream moving and ' +
      'dead-letters them while the breaker is CLOSED (the behaviour before holding; order is lost).',
    default: 'hold',
    example: 'hold',
  }),
  ISOLATE_AFTER_RERUNS: integer({
    description:
      'Host re-runs of a held batch after which an event that still fails while others get through is ' +
      'dead-lettered as isolated and the partition moves on. Also when a hold that is not an outage counts as stuck.',
    default: '3',
    example: '3',
    min: 0,
    max: 100,
  }),
  FAIL_FAST_AFTER: integer({
    description:
      'Outage-like failures in a row after which the rest of the batch is not tried on this run (held; the ' +
      'untried events count as failures for the breaker). 0 tries every event.',
    default: '3',
    example: '3',
    min: 0,
    max: 1_000,
  }),
  ORDERING: oneOf(orderingModes, {
    description:
      'Order of sink writes inside a batch: key writes readings of different keys (what the sink declares, ' +
      'e.g. the row) concurrently and those of one key strictly in sequence order; partition writes the ' +
      'batch one event after the other.',
    default: 'key',
    example: 'key',
  }),
  SINK_CONCURRENCY: integer({
    description: 'Most sink writes in flight at once for one batch when ORDERING is key (1 = one at a time).',
    default: '16',
    example: '16',
    min: 1,
    max: 256,
  }),
  SINK_TABLE_NAME: text({
    description: 'Table holding the home activity view (latest reading per sensor).',
    default: 'HomeActivity',
    example: 'HomeActivity',
    pattern: /^[A-Za-z][A-Za-z0-9]{2,62}$/,
    expects: 'a table name: a letter then 2 to 62 letters or digits',
  }),
  ...sinkSettings,
  DEAD_LETTER_CONTAINER: text({
    description: 'Blob container holding dead-lettered event bodies (claim check).',
    default: 'dead-letters',
    example: 'dead-letters',
    pattern: /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/,
    expects: 'a container name: 3 to 63 lowercase letters, digits and single dashes',
  }),
  DEAD_LETTER_QUEUE: text({
    description: 'Storage queue holding one message per dead letter; the redrive function reads it.',
    default: 'dead-letters',
    example: 'dead-letters',
    pattern: /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/,
    expects: 'a queue name: 3 to 63 lowercase letters, digits and single dashes',
  }),

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

  EMAIL_PROVIDER: oneOf(['acs', 'smtp', 'log'] as const, {
    description: 'How operators are emailed: Azure Communication Services, SMTP, or only logged.',
    default: 'log',
    example: 'smtp',
  }),
  EMAIL_SENDER: emailAddress({
    description: 'From address of breaker emails (an ACS verified sender in Azure).',
    default: 'breakwater@localhost',
    example: 'DoNotReply@example.com',
  }),
  APPROVERS: emailList({
    description: 'Operators who receive trip notices and approval links.',
    default: 'operator@localhost.test',
    example: 'oncall@example.com;lead@example.com',
  }),
  SMTP_HOST: text({
    description: 'SMTP server when EMAIL_PROVIDER=smtp (a mail catcher locally).',
    default: 'localhost',
    example: 'localhost',
  }),
  SMTP_PORT: integer({
    description: 'SMTP port when EMAIL_PROVIDER=smtp.',
    default: '1025',
    example: '1025',
    min: 1,
    max: 65_535,
  }),
  SMTP_SECURE: boolean({
    description: 'Use implicit TLS for SMTP (port 465 style).',
    default: 'false',
    example: 'false',
  }),
  ACS_ENDPOINT: baseUrl({
    description: 'Azure Communication Services endpoint when EMAIL_PROVIDER=acs (managed identity).',
    example: 'https://acs-breakwater.unitedstates.communication.azure.com',
  }),
  ACS_CONNECTION_STRING: text({
    description: 'ACS connection string, an alternative to ACS_ENDPOINT with managed identity.',
    example: 'endpoint=https://acs.example.communication.azure.com/;accesskey=...',
    secret: true,
  }),

  APPROVAL_SIGNING_KEY: text({
    description: 'Current HMAC-SHA256 key that signs approval links (at least 32 characters).',
    example: 'generate-with-openssl-rand-base64-48-xxxxxxxxxxxxxxxx',
    minLength: 32,
    expects: 'a secret of at least 32 characters',
    secret: true,
  }),
  APPROVAL_SIGNING_KEY_PREVIOUS: text({
    description: 'Previous signing key, still accepted during a rotation.',
    example: 'the-key-you-are-rotating-away-from-xxxxxxxxxxxxxxxxx',
    minLength: 32,
    expects: 'a secret of at least 32 characters',
    secret: true,
  }),
  APPROVAL_LINK_TTL_HOURS: integer({
    description: 'How long an emailed approval link stays valid.',
    default: '24',
    example: '24',
    min: 1,
    max: 720,
  }),
  APPROVAL_REMINDER_MINUTES: integer({
    description: 'Interval between reminder emails while a trip waits for approval.',
    default: '60',
    example: '60',
    min: 1,
    max: 10_080,
  }),
  APPROVAL_MAX_REMINDERS: integer({
    description: 'Reminders sent before the orchestration keeps waiting silently.',
    default: '3',
    example: '3',
    min: 0,
    max: 100,
  }),
  PUBLIC_BASE_URL: baseUrl({
    description:
      'Base URL of this app used in emailed links; defaults to https://WEBSITE_HOSTNAME in Azure, http://localhost:7071 locally.',
    example: 'http://localhost:7071',
  }),

  // Operations (webhook channel, signed-in approvers, Redis with Entra ID): operationsSettings.ts.
  ...operationsSettings,

  // The fault switch for `npm run verify` (off in production): faults/faultSwitchSettings.ts.
  ...faultSwitchSettings,
} as const;

export type SettingName = keyof typeof settings;
export const settingNames = Object.keys(settings) as SettingName[];

/** Names of settings read by the Functions host itself and validated by `loadConfig`. */
export const hostSettingNames = {
  storage: 'AzureWebJobsStorage',
  eventHubConnection: 'EventHubConnection',
} as const;
