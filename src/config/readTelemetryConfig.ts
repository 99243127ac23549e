import type { Environment } from './environment';

/** Where the app's OpenTelemetry records and spans go (the platform's Application Insights settings). */
export interface TelemetryExportConfig {
  /** APPLICATIONINSIGHTS_CONNECTION_STRING; absent: nothing is exported (local runs, tests). */
  readonly connectionString: string | undefined;
  /** APPLICATIONINSIGHTS_AUTHENTICATION_STRING says `Authorization=AAD`: export with the app's identity. */
  readonly entraAuth: boolean;
}

export function readTelemetryConfig(env: Environment): TelemetryExportConfig {
  const connectionString = env.APPLICATIONINSIGHTS_CONNECTION_STRING?.trim();
  return {
    connectionString: connectionString === '' ? undefined : connectionString,
    entraAuth: /(^|;)\s*Authorization=AAD\s*(;|$)/i.test(env.APPLICATIONINSIGHTS_AUTHENTICATION_STRING ?? ''),
  };
}
