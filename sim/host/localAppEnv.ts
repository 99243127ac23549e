/**
 * App settings for a local run against the given storage: table/queue/container names unique to the
 * caller so runs never see each other's rows. Overrides win. Free of vitest, so the demo uses it too.
 */
export function localAppEnv(
  storageConnectionString: string,
  prefix: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const id = `${prefix}${Math.random().toString(36).slice(2, 8)}`.toLowerCase().replace(/[^a-z0-9]/g, '');
  const env: Record<string, string | undefined> = {
    AzureWebJobsStorage: storageConnectionString,
    EventHubConnection:
      'Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;',
    EVENTHUB_NAME: 'sensor-readings',
    EVENTHUB_CONSUMER_GROUP: 'breakwater',
    // Most worlds have no hub behind EventHubConnection: a heartbeat that dialled it would only wait.
    HEARTBEAT_READS_BACKLOG: 'false',
    // Nor the retention guard, which reads the hub every minute (worlds with a served hub turn it on).
    RETENTION_GUARD_ENABLED: 'false',
    SINK_TABLE_NAME: `Activity${id}`,
    BREAKER_TABLE_NAME: `Breaker${id}`,
    DEAD_LETTER_CONTAINER: `dl-${id}`,
    DEAD_LETTER_QUEUE: `dl-${id}`,
    MAINTENANCE_CONTAINER: `mt-${id}`,
    EVENT_RETRY_INITIAL_DELAY_MS: '1',
    EVENT_RETRY_MAX_DELAY_MS: '2',
    APPROVAL_SIGNING_KEY: 'test-signing-key-0123456789abcdef0123456789',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
