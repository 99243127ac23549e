import { type ControlConfig } from '../control/triggerSwitch';
import { type AppConfig, GUARDED_FUNCTION_NAME } from './appConfig';
import type { Environment } from './environment';
import { ConfigError, type ConfigProblem } from './errors';
import { readOperationsConfig } from './operationsConfig';
import { publishedKeyProblems } from './publishedKeys';
import { readEmailTransport } from './readEmailTransport';
import { readFaultSwitchConfig } from './readFaultSwitchConfig';
import { nonEmpty, readEventHubConnection, readStorage } from './readHostConnections';
import { readSinkConfig } from './readSinkConfig';
import { hostSettingNames, type SettingName, settings } from './settings';
import type { SettingValues } from './settingValues';

export type { Environment } from './environment';
export type { SettingValues } from './settingValues';

/**
 * Reads every setting once, validates it and returns a frozen config.
 * Throws one ConfigError naming every bad setting, so start-up fails with the whole list at once.
 */
export function loadConfig(env: Environment): AppConfig {
  const problems: ConfigProblem[] = [];
  const values = readSettings(env, problems);
  const config = buildConfig(env, values, problems);
  if (problems.length > 0 || config === undefined) throw new ConfigError(problems);
  return deepFreeze(config);
}

function readSettings(env: Environment, problems: ConfigProblem[]): SettingValues {
  const values: Partial<Record<SettingName, unknown>> = {};
  for (const [name, spec] of Object.entries(settings) as [SettingName, (typeof settings)[SettingName]][]) {
    const raw = nonEmpty(env[name]) ?? spec.default;
    if (raw === undefined) continue;
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) {
      values[name] = parsed.data;
    } else {
      const shown = 'secret' in spec && spec.secret ? '' : ` (got "${raw}")`;
      problems.push({ setting: name, message: `expected ${spec.expects}, e.g. "${spec.example}"${shown}` });
    }
  }
  return values as SettingValues;
}

function buildConfig(env: Environment, v: SettingValues, problems: ConfigProblem[]): AppConfig | undefined {
  const require = <T>(name: SettingName, value: T | undefined, why = ''): T | undefined => {
    if (value === undefined && !problems.some((p) => p.setting === name)) {
      problems.push({ setting: name, message: `is required${why}, e.g. "${settings[name].example}"` });
    }
    return value;
  };

  const runningInAzure = nonEmpty(env.WEBSITE_SITE_NAME) !== undefined;
  const storage = readStorage(env, problems);
  const eventHubConnection = readEventHubConnection(env, problems);
  const hubName = require('EVENTHUB_NAME', v.EVENTHUB_NAME);

  if (v.BREAKER_STORE === 'redis')
    require('REDIS_CONNECTION', v.REDIS_CONNECTION, ' when BREAKER_STORE=redis');
  if (
    v.BREAKER_WINDOW_SECONDS !== undefined &&
    v.BREAKER_BUCKET_SECONDS !== undefined &&
    (v.BREAKER_WINDOW_SECONDS % v.BREAKER_BUCKET_SECONDS !== 0 ||
      v.BREAKER_WINDOW_SECONDS / v.BREAKER_BUCKET_SECONDS < 2)
  ) {
    problems.push({
      setting: 'BREAKER_BUCKET_SECONDS',
      message: `must divide BREAKER_WINDOW_SECONDS (${v.BREAKER_WINDOW_SECONDS}) into at least 2 buckets`,
    });
  }
  if (
    v.BREAKER_PROBATION_THRESHOLD !== undefined &&
    v.BREAKER_THRESHOLD !== undefined &&
    v.BREAKER_PROBATION_THRESHOLD > v.BREAKER_THRESHOLD
  ) {
    problems.push({
      setting: 'BREAKER_PROBATION_THRESHOLD',
      message: `must not exceed BREAKER_THRESHOLD (${v.BREAKER_THRESHOLD})`,
    });
  }
  if (
    v.RETENTION_SAVE_MARGIN_MINUTES !== undefined &&
    v.EVENTHUB_RETENTION_HOURS !== undefined &&
    v.RETENTION_SAVE_MARGIN_MINUTES >= v.EVENTHUB_RETENTION_HOURS * 60
  ) {
    problems.push({
      setting: 'RETENTION_SAVE_MARGIN_MINUTES',
      message:
        `must be less than EVENTHUB_RETENTION_HOURS (${v.EVENTHUB_RETENTION_HOURS} h = ` +
        `${v.EVENTHUB_RETENTION_HOURS * 60} min): the guard would save at once, or after the events are gone`,
    });
  }
  if (
    v.EVENT_RETRY_INITIAL_DELAY_MS !== undefined &&
    v.EVENT_RETRY_MAX_DELAY_MS !== undefined &&
    v.EVENT_RETRY_INITIAL_DELAY_MS > v.EVENT_RETRY_MAX_DELAY_MS
  ) {
    problems.push({
      setting: 'EVENT_RETRY_MAX_DELAY_MS',
      message: `must be at least EVENT_RETRY_INITIAL_DELAY_MS (${v.EVENT_RETRY_INITIAL_DELAY_MS})`,
    });
  }
  if (
    v.TRIGGER_RETRY_MIN_INTERVAL_SECONDS !== undefined &&
    v.TRIGGER_RETRY_MAX_INTERVAL_SECONDS !== undefined &&
    v.TRIGGER_RETRY_MIN_INTERVAL_SECONDS > v.TRIGGER_RETRY_MAX_INTERVAL_SECONDS
  ) {
    problems.push({
      setting: 'TRIGGER_RETRY_MAX_INTERVAL_SECONDS',
      message: `must be at least TRIGGER_RETRY_MIN_INTERVAL_SECONDS (${v.TRIGGER_RETRY_MIN_INTERVAL_SECONDS})`,
    });
  }

  if (
    v.TRIGGER_RETRY_MAX_COUNT !== undefined &&
    v.TRIGGER_RETRY_MAX_COUNT !== -1 &&
    v.TRIGGER_RETRY_FINITE_ACKNOWLEDGED !== true
  ) {
    problems.push({
      setting: 'TRIGGER_RETRY_MAX_COUNT',
      message:
        `${v.TRIGGER_RETRY_MAX_COUNT} lets the host checkpoint past a batch whose last attempt did not ` +
        'dead-letter everything (a worker restart or timeout on that attempt loses it); use -1, or set ' +
        'TRIGGER_RETRY_FINITE_ACKNOWLEDGED=true to accept the risk',
    });
  }

  // A retired setting whose old value would now be silently ignored: say so rather than hold quietly.
  const outagePolicy = env.OUTAGE_POLICY?.trim();
  if (outagePolicy !== undefined && outagePolicy !== '' && outagePolicy.toLowerCase() !== 'hold') {
    problems.push({
      setting: 'OUTAGE_POLICY',
      message:
        'is no longer a setting: an outage is always held behind the checkpoint and dead-letters nothing ' +
        '(dead-lettering it lost the order per key); remove the setting',
    });
  }

  if (runningInAzure) problems.push(...publishedKeyProblems(v));

  const sink = readSinkConfig(v, problems);
  const control = readControl(env, v, runningInAzure, problems);
  const transport = readEmailTransport(v, problems, require);
  const signingKey = require('APPROVAL_SIGNING_KEY', v.APPROVAL_SIGNING_KEY);
  const operations = readOperationsConfig(v, env, problems);
  const faultSwitch = readFaultSwitchConfig(v, problems);
  const publicBaseUrl =
    v.PUBLIC_BASE_URL ??
    (nonEmpty(env.WEBSITE_HOSTNAME) ? `https://${env.WEBSITE_HOSTNAME}` : 'http://localhost:7071');

  if (problems.length > 0) return undefined;
  // Every value below was validated or defaulted above; `must` only narrows the types.
  return {
    functionName: GUARDED_FUNCTION_NAME,
    environmentName:
      v.ENVIRONMENT_NAME ??
      (control?.mode === 'arm' ? control.siteName : undefined) ??
      nonEmpty(env.WEBSITE_SITE_NAME) ??
      'local',
    healthySpansPercent: must(v.TELEMETRY_HEALTHY_SPANS_PERCENT),
    eventHub: {
      connectionSetting: hostSettingNames.eventHubConnection,
      connection: must(eventHubConnection),
      hubName: must(hubName),
      consumerGroup: must(v.EVENTHUB_CONSUMER_GROUP),
      retentionHours: must(v.EVENTHUB_RETENTION_HOURS),
      retentionGuard: must(v.RETENTION_GUARD_ENABLED),
      retentionSaveMarginMinutes: v.RETENTION_SAVE_MARGIN_MINUTES,
      heartbeatReadsBacklog: must(v.HEARTBEAT_READS_BACKLOG),
    },
    storage: must(storage),
    processing: {
      maxAttempts: must(v.EVENT_MAX_ATTEMPTS),
      retryInitialDelayMs: must(v.EVENT_RETRY_INITIAL_DELAY_MS),
      retryMaxDelayMs: must(v.EVENT_RETRY_MAX_DELAY_MS),
      batchDeadlineMs: must(v.BATCH_DEADLINE_MS),
      sinkTable: must(v.SINK_TABLE_NAME),
      deadLetterContainer: must(v.DEAD_LETTER_CONTAINER),
      deadLetterQueue: must(v.DEAD_LETTER_QUEUE),
      outage: {
        // Not a setting: dead-lettering an outage loses order and events' place (G2); only the bench's
        // "before" asks for it, through RuntimeOptions.outagePolicy.
        policy: 'hold',
        isolateAfterReruns: must(v.ISOLATE_AFTER_RERUNS),
        failFastAfter: must(v.FAIL_FAST_AFTER),
      },
      ordering: { mode: must(v.ORDERING), concurrency: must(v.SINK_CONCURRENCY) },
      maxFutureSkewMs: must(v.READING_MAX_FUTURE_SKEW_SECONDS) * 1000,
    },
    sink: must(sink),
    triggerRetry: {
      maxRetryCount: must(v.TRIGGER_RETRY_MAX_COUNT),
      minimumIntervalSeconds: must(v.TRIGGER_RETRY_MIN_INTERVAL_SECONDS),
      maximumIntervalSeconds: must(v.TRIGGER_RETRY_MAX_INTERVAL_SECONDS),
    },
    breaker: {
      store: must(v.BREAKER_STORE),
      redisConnection: v.REDIS_CONNECTION,
      threshold: must(v.BREAKER_THRESHOLD),
      windowSeconds: must(v.BREAKER_WINDOW_SECONDS),
      bucketSeconds: must(v.BREAKER_BUCKET_SECONDS),
      probationThreshold: must(v.BREAKER_PROBATION_THRESHOLD),
      probationSeconds: must(v.BREAKER_PROBATION_SECONDS),
      stateCacheMs: must(v.BREAKER_STATE_CACHE_MS),
      tableName: must(v.BREAKER_TABLE_NAME),
    },
    control: must(control),
    email: { transport: must(transport), sender: must(v.EMAIL_SENDER), approvers: must(v.APPROVERS) },
    approval: {
      signingKeys: v.APPROVAL_SIGNING_KEY_PREVIOUS
        ? [must(signingKey), v.APPROVAL_SIGNING_KEY_PREVIOUS]
        : [must(signingKey)],
      linkTtlHours: must(v.APPROVAL_LINK_TTL_HOURS),
      reminderMinutes: must(v.APPROVAL_REMINDER_MINUTES),
      maxReminders: must(v.APPROVAL_MAX_REMINDERS),
      publicBaseUrl,
    },
    operations: must(operations),
    faultSwitch: must(faultSwitch),
    managedIdentityClientId: v.AZURE_CLIENT_ID,
    runningInAzure,
  };
}

function readControl(
  env: Environment,
  v: SettingValues,
  runningInAzure: boolean,
  problems: ConfigProblem[],
): ControlConfig | undefined {
  const mode = v.TRIGGER_CONTROL ?? (runningInAzure ? 'arm' : 'local');
  if (mode === 'local') return { mode };
  // WEBSITE_OWNER_NAME looks like "<subscriptionId>+<resourceGroup>-<region>webspace".
  const ownerSubscription = nonEmpty(env.WEBSITE_OWNER_NAME)?.split('+')[0];
  const subscriptionId = v.AZURE_SUBSCRIPTION_ID ?? ownerSubscription;
  const resourceGroup = v.AZURE_RESOURCE_GROUP ?? nonEmpty(env.WEBSITE_RESOURCE_GROUP);
  const siteName = v.AZURE_FUNCTIONAPP_NAME ?? nonEmpty(env.WEBSITE_SITE_NAME);
  const missing: [SettingName, string | undefined][] = [
    ['AZURE_SUBSCRIPTION_ID', subscriptionId],
    ['AZURE_RESOURCE_GROUP', resourceGroup],
    ['AZURE_FUNCTIONAPP_NAME', siteName],
  ];
  for (const [name, value] of missing) {
    if (value === undefined)
      problems.push({ setting: name, message: 'is required when TRIGGER_CONTROL=arm outside Azure' });
  }
  if (subscriptionId === undefined || resourceGroup === undefined || siteName === undefined) return undefined;
  return { mode, subscriptionId, resourceGroup, siteName };
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('internal: a validated setting is missing');
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
