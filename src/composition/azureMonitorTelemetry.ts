import type { TokenCredential } from '@azure/core-auth';
import * as azureFunctions from '@azure/functions';
import { AzureFunctionsInstrumentationESM } from '@azure/functions-opentelemetry-instrumentation';
import { AzureMonitorLogExporter, AzureMonitorTraceExporter } from '@azure/monitor-opentelemetry-exporter';

import type { TelemetryExportConfig } from '../config/readTelemetryConfig';
import { startTelemetry } from './telemetrySetup';

let started = false;

/**
 * The Functions OpenTelemetry path (host.json `telemetryMode: OpenTelemetry`): the app's records and
 * dependency spans go to Application Insights through the Azure Monitor exporters, with the app's
 * identity when the platform asks for Entra ID; the Functions instrumentation tells the host that the
 * worker exports (so it does not send the worker's logs twice), turns each `context.log` into a
 * record and makes each invocation's trace the parent of the app's spans. Once per process; nothing
 * without a connection string.
 */
export function startAzureMonitorTelemetry(
  config: TelemetryExportConfig,
  environmentName: string,
  getCredential: () => TokenCredential,
): void {
  if (started || config.connectionString === undefined) return;
  started = true;
  const options = {
    connectionString: config.connectionString,
    ...(config.entraAuth ? { credential: getCredential() } : {}),
  };
  startTelemetry(environmentName, {
    spans: new AzureMonitorTraceExporter(options),
    logs: new AzureMonitorLogExporter(options),
  });
  // Patched once, here, on the module the app registers with: enabled it would also hook `require` and
  // patch the module a second time (two records per log line). Built after the logger provider is set.
  new AzureFunctionsInstrumentationESM({ enabled: false }).registerAzFunc(azureFunctions);
}
