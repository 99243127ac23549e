/**
 * Values of the Event Hubs trigger's metadata as they really arrive from the worker. The host sends
 * `SequenceNumberArray` as a 64-bit integer collection: the worker may hand it over as numbers, as
 * strings, or (some worker versions) as protobuf `Long` objects `{ low, high, unsigned }`, which the
 * library's camel-casing turns into plain objects. Enqueued times come as JSON text, often without a
 * zone: they are UTC and must not shift with the process's `TZ`.
 */

/** A non-negative sequence number from any of its wire shapes, or undefined when it is none of them. */
export function toSequenceNumber(value: unknown): number | undefined {
  const n = toWireInteger(value);
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function toWireInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  if (isLongShaped(value)) {
    // Long: two 32-bit halves; `low` is read unsigned, `high` signed unless the value is unsigned.
    const high = value.unsigned === true ? value.high >>> 0 : value.high | 0;
    return high * 2 ** 32 + (value.low >>> 0);
  }
  return undefined;
}

function isLongShaped(value: unknown): value is { low: number; high: number; unsigned?: boolean } {
  if (typeof value !== 'object' || value === null) return false;
  const { low, high } = value as Record<string, unknown>;
  return Number.isInteger(low) && Number.isInteger(high);
}

/** An ISO date-time without `Z` or an offset. */
const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** An enqueued time as an ISO string in UTC; zone-less text is read as UTC, never as local time. */
export function toUtcTimestamp(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const time = Date.parse(ZONELESS.test(text) ? `${text}Z` : text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** What a value is, for a warning: its type and shape, never its content (metadata comes from outside). */
export function describeWireValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value)
      .slice(0, 5)
      .map((k) => k.replace(/[^\w$-]/g, '?').slice(0, 20));
    return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.join(', ')}`;
  }
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return `a ${typeof value}`;
}
