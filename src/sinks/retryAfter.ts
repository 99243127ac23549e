/** Longest wait a `Retry-After` may ask for; longer values are cut to this (the batch deadline still applies). */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * `Retry-After` (RFC 9110 section 10.2.3) in milliseconds from `nowMs`: delay-seconds or an HTTP-date.
 * Undefined when absent or malformed; a date in the past means 0.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const ms = /^\d{1,10}$/.test(text) ? Number(text) * 1000 : Date.parse(text) - nowMs;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}
