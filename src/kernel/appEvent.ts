import { logs, SeverityNumber } from '@opentelemetry/api-logs';

import type { Logger } from './logger';
import { telemetry, type TelemetryFields, type TelemetryKind, telemetryLine } from './telemetryNames';

/** Where a record carries its event name and its function (`customDimensions.event`, `.function`). */
export const eventAttribute = 'event';
export const functionAttribute = 'function';
/** A worker log's category as host.json names it (`Function.<name>.User`); an app event's is derived. */
export const categoryAttribute = 'Category';
/** The OpenTelemetry scope of the app's records and spans. */
export const telemetryScope = 'breakwater';

const severities = {
  log: { severityNumber: SeverityNumber.INFO, severityText: 'Information' },
  warn: { severityNumber: SeverityNumber.WARN, severityText: 'Warning' },
  error: { severityNumber: SeverityNumber.ERROR, severityText: 'Error' },
} as const;

export type EventLevel = keyof typeof severities;

/**
 * The one place an app event leaves the process: the `<name> <JSON>` line through the logger (the
 * host's log, `func start`, the tests' captured lines) and an OpenTelemetry log record named by its
 * `event` attribute with each field as an attribute (a dimension in Application Insights), plus the
 * function that emitted it; `environment` is stamped on every record where the exporters are set up.
 * Null fields are left out of the record (an absent dimension), kept in the line.
 */
export function emitEvent<K extends TelemetryKind>(
  logger: Logger,
  level: EventLevel,
  kind: K,
  fields: TelemetryFields<K>,
): void {
  logger[level](telemetryLine(kind, fields));
  const attributes: Record<string, string | number | boolean> = { [eventAttribute]: telemetry[kind].name };
  if (logger.functionName !== undefined) attributes[functionAttribute] = logger.functionName;
  for (const [name, value] of Object.entries<string | number | boolean | null>(fields))
    if (value !== null) attributes[name] = value;
  logs.getLogger(telemetryScope).emit({ body: telemetry[kind].name, ...severities[level], attributes });
}
