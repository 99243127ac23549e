import { randomBytes } from 'node:crypto';

/**
 * A trip id: the opening time (readable in emails and sortable) plus 48 random bits, so two stores
 * tripping in the same millisecond still get different ids. Letters, digits and `-` only: it becomes
 * part of a Durable Functions instance id.
 */
export function newTripId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:.]/g, '').replace('T', 't').toLowerCase();
  return `${stamp}-${randomBytes(6).toString('hex')}`;
}
