import { FutureReadingError } from './errors';
import type { ReceivedEvent } from './receivedEvent';
import type { SensorReading } from './sensorReading';

/** The default READING_MAX_FUTURE_SKEW_SECONDS: gateways a few minutes fast are normal. */
export const defaultMaxFutureSkewMs = 300_000;

/** How far ahead of its event a reading may be dated, and the clock used when the event has no time. */
export interface ReadingTimeRule {
  readonly maxFutureSkewMs: number;
  readonly now: () => number;
}

/**
 * Refuses a reading dated further ahead than the bound of the time Event Hubs enqueued its event: the
 * sinks keep the newest reading per sensor, so a reading from a gateway whose clock is days or
 * millennia fast would win over every real one that follows, for good. Exactly at the bound is
 * accepted. An event without a readable enqueued time (a host that sent no metadata) is measured
 * against the processing clock instead: the enqueued time is never later than now, so that refuses
 * only readings the enqueued-time check would refuse too.
 */
export function refuseFutureReading(
  reading: SensorReading,
  event: Pick<ReceivedEvent, 'enqueuedTimeUtc'>,
  rule: ReadingTimeRule,
): void {
  const occurredAt = Date.parse(reading.occurredAt);
  const enqueuedAt = event.enqueuedTimeUtc === undefined ? Number.NaN : Date.parse(event.enqueuedTimeUtc);
  const against = Number.isFinite(enqueuedAt) ? enqueuedAt : rule.now();
  const aheadMs = occurredAt - against;
  if (aheadMs <= rule.maxFutureSkewMs) return;
  const what = Number.isFinite(enqueuedAt) ? 'its enqueued time' : 'the processing clock (no enqueued time)';
  throw new FutureReadingError(
    `occurredAt ${new Date(occurredAt).toISOString()} is ${describeAhead(aheadMs)} ahead of ` +
      `${what} ${new Date(against).toISOString()}; at most ${rule.maxFutureSkewMs / 1000} s of clock ` +
      'skew is accepted (READING_MAX_FUTURE_SKEW_SECONDS)',
  );
}

function describeAhead(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 3_600) return `${seconds} s`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 365 * 86_400) return `${Math.round(seconds / 86_400)} days`;
  return `${Math.round(seconds / (365.25 * 86_400))} years`;
}
