/**
 * Every app event the alert rules (infra/core/alerts.bicep) and the workbook (infra/core/workbook.json)
 * query: one list, names and fields. `emitEvent` (kernel/appEvent.ts) writes each as a `<name> <JSON>`
 * log line and as an OpenTelemetry record whose attributes are the fields (customDimensions in
 * Application Insights); test/deploy/alertRules.test.ts and workbook.test.ts tie the queries to it.
 */
export const telemetry = {
  /** Once a minute from the watchdog: the breaker as the alert rules see it. */
  heartbeat: {
    name: 'Breakwater.Heartbeat',
    fields: [
      'state',
      'tripId',
      'openSeconds',
      'triggerDisabled',
      'deadLetters',
      'storeReachable',
      'waitingEvents',
      'stalledSeconds',
      'maintenanceSeconds',
      'timeToFirstLossSeconds',
      'savedEvents',
    ],
  },
  /** The moment a batch's failures trip the breaker (the heartbeat shows it within a minute too). */
  breakerOpened: { name: 'Breakwater.BreakerOpened', fields: ['tripId', 'failuresInWindow'] },
  /** A batch held behind its checkpoint (circuit open or dead-letter store down), with its oldest event's age. */
  batchHeld: { name: 'Breakwater.BatchHeld', fields: ['reason', 'events', 'heldSeconds', 'partitionId'] },
  /** The breaker store failed a call (first failure of an outage, then once per log interval). */
  storeUnavailable: { name: 'Breakwater.BreakerStoreUnavailable', fields: ['operation', 'failedCalls'] },
  /** Events of one partition dead-lettered by one run, per reason (the dead-letter reasons of processing/). */
  deadLettered: { name: 'Breakwater.DeadLettered', fields: ['reason', 'events', 'partitionId'] },
  /** An approver restarted trip `tripId` (the approval page or the internal API). */
  tripApproved: { name: 'Breakwater.TripApproved', fields: ['tripId', 'approvedBy', 'source'] },
  /** The retention guard saved waiting events to blobs and moved the checkpoint past them. */
  retentionSaved: {
    name: 'Breakwater.RetentionSaved',
    fields: ['partitionId', 'saved', 'from', 'through', 'where'],
  },
  /** The retention guard could not save (or could not move the checkpoint): retried next minute. */
  retentionSaveFailed: {
    name: 'Breakwater.RetentionSaveFailed',
    fields: ['partitionId', 'reason', 'minutesLeft'],
  },
} as const;

export type TelemetryKind = keyof typeof telemetry;
type FieldOf<K extends TelemetryKind> = (typeof telemetry)[K]['fields'][number];
export type TelemetryFields<K extends TelemetryKind> = {
  readonly [F in FieldOf<K>]: string | number | boolean | null;
};

export const telemetryNames: readonly string[] = Object.values(telemetry).map((t) => t.name);

/** The log line for one telemetry record: its name, a space, then the fields as JSON. */
export function telemetryLine<K extends TelemetryKind>(kind: K, fields: TelemetryFields<K>): string {
  return `${telemetry[kind].name} ${JSON.stringify(fields)}`;
}

/** Reads a telemetry line back (as the alert queries do); undefined for any other log line. */
export function parseTelemetryLine(
  line: string,
): { readonly name: string; readonly fields: Record<string, unknown> } | undefined {
  const space = line.indexOf(' ');
  const name = line.slice(0, space);
  if (space < 0 || !telemetryNames.includes(name)) return undefined;
  try {
    const fields: unknown = JSON.parse(line.slice(space + 1));
    return typeof fields === 'object' && fields !== null
      ? { name, fields: fields as Record<string, unknown> }
      : undefined;
  } catch {
    return undefined;
  }
}
