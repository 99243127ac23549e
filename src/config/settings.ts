import { breakerSettings } from './breakerSettings';
import { faultSwitchSettings } from './faultSwitchSettings';
import { notifySettings } from './notifySettings';
import { operationsSettings } from './operationsSettings';
import { processingSettings } from './processingSettings';
import { boolean, integer, text } from './settingKinds';

/**
 * Every app setting Breakwater reads: the one source of truth for names, defaults and meaning.
 * The table in docs/configuration.md, `local.settings.json.example` and the Bicep app settings are
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
  RETENTION_SAVE_MARGIN_MINUTES: integer({
    description:
      'The retention guard saves the events waiting in a partition (to blobs `saved/<partition>/` in ' +
      'DEAD_LETTER_CONTAINER) once the oldest is this close to EVENTHUB_RETENTION_HOURS, and only then moves the ' +
      'checkpoint past them; they reach the sink before the trigger is enabled again. Must be less than the ' +
      'retention. Unset: a seventh of the retention (24 h of the default 168 h): the time the save has to ' +
      'catch up and storage may be down before an event is lost.',
    example: '1440',
    min: 1,
    max: 2_160 * 60,
  }),
  RETENTION_GUARD_ENABLED: boolean({
    description:
      'Runs the retention guard (RETENTION_SAVE_MARGIN_MINUTES) on every watchdog tick. Turn it off only where ' +
      "nothing can outlive the hub's retention some other way (e.g. Event Hubs Capture replayed by hand): with it " +
      'off, events that wait longer than the retention are lost.',
    default: 'true',
    example: 'true',
  }),
  HEARTBEAT_READS_BACKLOG: boolean({
    description:
      'The heartbeat also reads the events waiting behind the checkpoints (consumer lag) and how long a partition ' +
      'with waiting events has not moved, for the consumer-lag and trigger-stalled alerts: one partition-properties ' +
      'read per partition and one checkpoint listing a minute.',
    default: 'true',
    example: 'true',
  }),
  TELEMETRY_HEALTHY_SPANS_PERCENT: integer({
    description:
      'Share of the healthy per-event and per-batch dependency spans (sink and Redis calls) exported to ' +
      'Application Insights, chosen by trace so an invocation is kept or left out whole; failed spans and every ' +
      'other span (ARM, email, webhook) are always exported. At 1,700 events/s every healthy sink call is 147 ' +
      'million rows a day (docs/benchmarks.md); 100 exports them all.',
    default: '1',
    example: '1',
    min: 0,
    max: 100,
  }),
  ENVIRONMENT_NAME: text({
    description:
      'Name of this deployment, shown on every page and in every email subject; defaults to the function app ' +
      'name in Azure and "local" elsewhere.',
    example: 'breakwater-prod',
    pattern: /^[\w .:-]{1,40}$/,
    expects: 'up to 40 letters, digits, spaces and . _ : -',
  }),

  // Per-event retry, host retry, outages, ordering, sink, dead letters: processingSettings.ts.
  ...processingSettings,

  // Breaker store, threshold, window, probation, trigger switch: breakerSettings.ts.
  ...breakerSettings,

  // Email, approvers, approval links and reminders: notifySettings.ts.
  ...notifySettings,

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
