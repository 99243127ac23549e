import { z } from 'zod';

import { boundText } from '../kernel/boundText';
import { isReadableTrip, type TripEntry, type TripRecord } from './breakerStore';
import { BreakerStoreCorruptError } from './errors';

/** Milliseconds a JavaScript Date can hold: anything beyond makes `toISOString` throw. */
const MAX_DATE_MS = 8.64e15;
const timestamp = z.number().int().min(-MAX_DATE_MS).max(MAX_DATE_MS);

const core = z.object({
  tripId: z.string().min(1),
  cause: z.enum(['threshold', 'probation', 'manual']),
  openedAt: timestamp,
  failuresInWindow: z.number().int().min(0),
});
const sampleEntry = z.object({
  eventKey: z.string(),
  kind: z.enum(['transient', 'permanent']),
  message: z.string(),
});
const optional = {
  reason: z.string(),
  approvedAt: timestamp,
  approvedBy: z.string(),
  resumedAt: timestamp,
  closedAt: timestamp,
  // The watchdog's latest downstream probe while OPEN (watchdog/probeWhileOpen.ts); a bad one is dropped.
  probe: z.object({
    at: timestamp,
    ok: z.boolean(),
    error: z.string().max(1_000).optional(),
    since: timestamp,
  }),
} as const;

/**
 * Reads one stored trip record without ever throwing: the fields every reader relies on must parse,
 * or the record is unreadable; a sample entry or an optional field that does not parse is dropped,
 * so the rest of the record still shows.
 */
export function parseTripRecord(json: string, knownTripId?: string): TripEntry {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return unreadable(`not JSON: ${json}`, knownTripId);
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const parsed = core.safeParse(record);
  const named = typeof record.tripId === 'string' ? record.tripId : knownTripId;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return unreadable(`${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'wrong shape'}`, named);
  }
  const trip: Record<string, unknown> = {
    ...parsed.data,
    sample: Array.isArray(record.sample)
      ? record.sample.flatMap((s) => {
          const entry = sampleEntry.safeParse(s);
          return entry.success ? [entry.data] : [];
        })
      : [],
  };
  for (const [field, schema] of Object.entries(optional)) {
    const result = schema.safeParse(record[field]);
    if (result.success) trip[field] = result.data;
  }
  return trip as unknown as TripRecord;
}

function unreadable(why: string, tripId: string | undefined): TripEntry {
  return {
    unreadable: boundText(`stored trip record is unreadable (${why})`, 200),
    tripId: tripId === undefined ? undefined : boundText(tripId, 100),
  };
}

/** For an update of the record: an unreadable one is not merged into (typed error, the caller logs it). */
export function parseTripForUpdate(json: string): TripRecord {
  const entry = parseTripRecord(json);
  if (isReadableTrip(entry)) return entry;
  throw new BreakerStoreCorruptError(entry.unreadable);
}

/** The trip id an entry names, readable or not. */
export const tripIdOf = (entry: TripEntry): string | undefined => entry.tripId;
