import { randomUUID } from 'node:crypto';

/**
 * A trip id: the opening time (readable in emails and sortable) plus 48 random bits, so two stores
 * tripping in the same millisecond still get different ids. Letters, digits and `-` only: it becomes
 * part of a Durable Functions instance id. `randomUUID` draws from a cached entropy pool: cheap enough
 * for the Redis `record` path, which passes a candidate id on every call.
 */
export function newTripId(now: number): string {
  const iso = new Date(now).toISOString(); // 2026-01-01T00:00:00.000Z
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}t${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${iso.slice(20, 23)}z`;
  return `${stamp}-${randomUUID().slice(24)}`;
}
