import { randomUUID } from 'node:crypto';

/**
 * A trip id: `t` + the opening time in ms (sortable; the trip record carries it readable) + 48 random
 * bits, so two stores tripping in the same millisecond still get different ids. Letters, digits and `-`
 * only: it becomes part of a Durable Functions instance id. Cheap (randomUUID draws from a cached
 * entropy pool) because the Redis `record` passes a candidate id on every call.
 */
export function newTripId(now: number): string {
  return `t${Math.floor(now)}-${randomUUID().slice(24)}`;
}
