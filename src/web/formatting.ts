/** UTC timestamp for pages and emails: unambiguous for operators in any time zone. */
export function formatTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A duration in its two largest units, zero parts left out: "40 s", "1 min 30 s", "5 min", "2 h 5 min".
 * Pages (elapsed times) and emails (setting values) both use it.
 */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return s % 60 === 0 ? `${min} min` : `${min} min ${s % 60} s`;
  return min % 60 === 0 ? `${min / 60} h` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

export function formatCount(n: number | undefined): string {
  return n === undefined ? 'unknown' : String(n);
}
