import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/loadConfig';
import { minimal, problemsOf } from './configFixture';

describe('loadConfig', () => {
  it('applies the documented defaults: more than 100 failures in 30 s, 1 s buckets, 1 s state cache', () => {
    const config = loadConfig(minimal);
    expect(config.breaker).toMatchObject({
      store: 'table',
      threshold: 100,
      windowSeconds: 30,
      bucketSeconds: 1,
      stateCacheMs: 1000,
    });
    expect(config.triggerRetry).toEqual({
      maxRetryCount: -1,
      minimumIntervalSeconds: 5,
      maximumIntervalSeconds: 30,
    });
    expect(config.eventHub).toMatchObject({
      connectionSetting: 'EventHubConnection',
      connection: { kind: 'connectionString' },
      hubName: 'sensor-readings',
      consumerGroup: '$Default',
      retentionHours: 168,
    });
    expect(config.environmentName).toBe('local');
    expect(config.control).toEqual({ mode: 'local' });
    expect(config.approval.publicBaseUrl).toBe('http://localhost:7071');
    expect(config.functionName).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it('returns a deeply frozen object', () => {
    const config = loadConfig(minimal);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.breaker)).toBe(true);
    expect(Object.isFrozen(config.approval.signingKeys)).toBe(true);
  });

  it('names every bad setting in one error, with what a good value looks like', () => {
    const problems = problemsOf({
      ...minimal,
      EVENTHUB_NAME: '',
      BREAKER_THRESHOLD: 'lots',
      BREAKER_STORE: 'mongodb',
      EVENT_MAX_ATTEMPTS: '0',
      PUBLIC_BASE_URL: 'ftp://example.com',
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^EVENT_MAX_ATTEMPTS: expected a whole number from 1 to 20, e\.g\. "4" \(got "0"\)$/,
      ),
      expect.stringMatching(/^BREAKER_STORE: expected one of table \| redis/),
      expect.stringMatching(/^BREAKER_THRESHOLD: expected a whole number from 1 to 1000000/),
      expect.stringMatching(/^PUBLIC_BASE_URL: expected an http\(s\) URL/),
      expect.stringMatching(/^EVENTHUB_NAME: is required/),
    ]);
  });

  it('bounds the clock skew a reading may have: 300 s by default, a clear error naming the setting', () => {
    expect(loadConfig(minimal).processing.maxFutureSkewMs).toBe(300_000);
    expect(loadConfig({ ...minimal, READING_MAX_FUTURE_SKEW_SECONDS: '0' }).processing.maxFutureSkewMs).toBe(
      0,
    );
    for (const bad of ['-1', '86401', '5m', '1.5'])
      expect(problemsOf({ ...minimal, READING_MAX_FUTURE_SKEW_SECONDS: bad })).toEqual([
        `READING_MAX_FUTURE_SKEW_SECONDS: expected a whole number from 0 to 86400, e.g. "300" (got "${bad}")`,
      ]);
  });

  it('lists the missing host connections and the signing key when nothing is set', () => {
    const problems = problemsOf({});
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'AzureWebJobsStorage',
      'EventHubConnection',
      'EVENTHUB_NAME',
      'APPROVAL_SIGNING_KEY',
    ]);
  });

  it('never echoes a secret value back in the error', () => {
    const problems = problemsOf({
      ...minimal,
      APPROVAL_SIGNING_KEY: 'short-secret',
      REDIS_CONNECTION: 'http://user:hunter2@x',
    });
    expect(problems.join('\n')).not.toMatch(/short-secret|hunter2/);
    expect(problems.join('\n')).toMatch(/APPROVAL_SIGNING_KEY: expected a secret of at least 32 characters/);
  });

  it('requires REDIS_CONNECTION only when the Redis store is selected', () => {
    expect(problemsOf({ ...minimal, BREAKER_STORE: 'redis' })).toEqual([
      expect.stringMatching(/^REDIS_CONNECTION: is required when BREAKER_STORE=redis/),
    ]);
    expect(
      loadConfig({ ...minimal, BREAKER_STORE: 'REDIS', REDIS_CONNECTION: 'rediss://cache:6380' }).breaker
        .store,
    ).toBe('redis');
  });

  it('rejects inconsistent combinations', () => {
    expect(problemsOf({ ...minimal, BREAKER_WINDOW_SECONDS: '30', BREAKER_BUCKET_SECONDS: '7' })).toEqual([
      expect.stringMatching(/^BREAKER_BUCKET_SECONDS: must divide BREAKER_WINDOW_SECONDS \(30\)/),
    ]);
    expect(problemsOf({ ...minimal, BREAKER_PROBATION_THRESHOLD: '500' })).toEqual([
      expect.stringMatching(/^BREAKER_PROBATION_THRESHOLD: must not exceed/),
    ]);
    expect(
      problemsOf({ ...minimal, EVENT_RETRY_INITIAL_DELAY_MS: '900', EVENT_RETRY_MAX_DELAY_MS: '100' }),
    ).toHaveLength(1);
    expect(
      problemsOf({
        ...minimal,
        TRIGGER_RETRY_MIN_INTERVAL_SECONDS: '60',
        TRIGGER_RETRY_MAX_INTERVAL_SECONDS: '10',
      }),
    ).toHaveLength(1);
  });

  it('refuses a finite host retry count unless the risk is acknowledged, naming the setting', () => {
    // After the last failed attempt the host checkpoints anyway: what that attempt had not
    // dead-lettered (a worker restart, a timeout) is lost (platform-facts, "Finite maxRetryCount").
    expect(problemsOf({ ...minimal, TRIGGER_RETRY_MAX_COUNT: '5' })).toEqual([
      expect.stringMatching(
        /^TRIGGER_RETRY_MAX_COUNT: 5 lets the host checkpoint past a batch .* set TRIGGER_RETRY_FINITE_ACKNOWLEDGED=true/,
      ),
    ]);
    expect(
      loadConfig({ ...minimal, TRIGGER_RETRY_MAX_COUNT: '5', TRIGGER_RETRY_FINITE_ACKNOWLEDGED: 'true' })
        .triggerRetry.maxRetryCount,
    ).toBe(5);
    expect(loadConfig({ ...minimal, TRIGGER_RETRY_MAX_COUNT: '-1' }).triggerRetry.maxRetryCount).toBe(-1);
  });

  it('refuses the retired OUTAGE_POLICY=dead-letter by name, and holds whatever the old value was', () => {
    expect(problemsOf({ ...minimal, OUTAGE_POLICY: 'dead-letter' })).toEqual([
      expect.stringMatching(
        /^OUTAGE_POLICY: is no longer a setting: an outage is always held .* remove the setting/,
      ),
    ]);
    for (const kept of [undefined, '', 'hold', ' HOLD ']) {
      const env = kept === undefined ? minimal : { ...minimal, OUTAGE_POLICY: kept };
      expect(loadConfig(env).processing.outage.policy).toBe('hold');
    }
  });

  it('accepts identity-based connections', () => {
    const { AzureWebJobsStorage: _storage, EventHubConnection: _eventHub, ...rest } = minimal;
    const config = loadConfig({
      ...rest,
      AzureWebJobsStorage__accountName: 'stbreakwater',
      EventHubConnection__fullyQualifiedNamespace: 'ns.servicebus.windows.net',
    });
    expect(config.storage).toEqual({
      kind: 'identity',
      blobServiceUri: 'https://stbreakwater.blob.core.windows.net',
      queueServiceUri: 'https://stbreakwater.queue.core.windows.net',
      tableServiceUri: 'https://stbreakwater.table.core.windows.net',
    });
  });

  it('rejects a storage setting that is not a connection string', () => {
    expect(problemsOf({ ...minimal, AzureWebJobsStorage: 'https://account.blob.core.windows.net' })).toEqual([
      expect.stringMatching(/^AzureWebJobsStorage: expected a storage connection string/),
    ]);
  });

  it('detects the ARM target of the app itself when running in Azure', () => {
    const config = loadConfig({
      ...minimal,
      WEBSITE_SITE_NAME: 'func-breakwater',
      WEBSITE_HOSTNAME: 'func-breakwater.azurewebsites.net',
      WEBSITE_RESOURCE_GROUP: 'rg-breakwater',
      WEBSITE_OWNER_NAME: '11111111-2222-3333-4444-555555555555+rg-breakwater-EastUSwebspace-Linux',
    });
    expect(config.control).toEqual({
      mode: 'arm',
      subscriptionId: '11111111-2222-3333-4444-555555555555',
      resourceGroup: 'rg-breakwater',
      siteName: 'func-breakwater',
    });
    expect(config.approval.publicBaseUrl).toBe('https://func-breakwater.azurewebsites.net');
    expect(config.runningInAzure).toBe(true);
  });

  it('asks for the ARM target when TRIGGER_CONTROL=arm is set outside Azure', () => {
    expect(problemsOf({ ...minimal, TRIGGER_CONTROL: 'arm' }).map((p) => p.split(':')[0])).toEqual([
      'AZURE_SUBSCRIPTION_ID',
      'AZURE_RESOURCE_GROUP',
      'AZURE_FUNCTIONAPP_NAME',
    ]);
  });

  it('reads email and approval settings', () => {
    const config = loadConfig({
      ...minimal,
      EMAIL_PROVIDER: 'smtp',
      SMTP_PORT: '2525',
      APPROVERS: 'a@example.com; b@example.com',
      APPROVAL_SIGNING_KEY_PREVIOUS: 'the-previous-signing-key-32-chars-long!!',
    });
    expect(config.email).toEqual({
      transport: { provider: 'smtp', host: 'localhost', port: 2525, secure: false },
      sender: 'breakwater@localhost',
      approvers: ['a@example.com', 'b@example.com'],
    });
    expect(config.approval.signingKeys).toHaveLength(2);
    expect(problemsOf({ ...minimal, APPROVERS: 'not-an-address' })).toEqual([
      expect.stringMatching(/^APPROVERS: expected one or more email addresses/),
    ]);
    expect(problemsOf({ ...minimal, EMAIL_PROVIDER: 'acs' })).toEqual([
      expect.stringMatching(/^ACS_ENDPOINT: or ACS_CONNECTION_STRING is required/),
    ]);
  });
});
