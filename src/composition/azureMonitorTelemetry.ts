import type { TokenCredential } from '@azure/core-auth';
import * as azureFunctions from '@azure/functions';
import { AzureMonitorLogExporter, AzureMonitorTraceExporter } from '@azure/monitor-opentelemetry-exporter';

import { readHostLogLevels } from '../config/hostLogLevels';
import type { TelemetryExportConfig } from '../config/readTelemetryConfig';
import { startTelemetry } from './telemetrySetup';
import { exportWorkerLogs } from './workerLogExport';

let started = false;

/**
 * The Functions OpenTelemetry path (host.json `telemetryMode: OpenTelemetry`): the app's records and
 * dependency spans go to Application Insights through the Azure Monitor exporters, with the app's
 * identity when the platform asks for Entra ID, filtered by host.json's log levels (the host filters only
 * its own logs there); the worker's log hook tells the host that the worker exports, turns each log of an
 * invocation into one record and makes each invocation's trace the parent of the app's spans. Once per
 * process; nothing without a connection string. host.json is the one in the script root the host gives
 * the worker (`AzureWebJobsScriptRoot`), else in the working directory the worker starts in.
 */
export function startAzureMonitorTelemetry(
  config: TelemetryExportConfig,
  environmentName: string,
  getCredential: () => TokenCredential,
  root: string,
  healthySpansPercent: number,
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
    levels: readHostLogLevels(root, process.env),
    healthySpansPercent,
  });
  exportWorkerLogs(azureFunctions);
}
