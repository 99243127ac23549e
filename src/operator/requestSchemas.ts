import { z } from 'zod';

import { MAINTENANCE_BY_MAX, MAINTENANCE_REASON_MAX } from '../maintenance/maintenance';

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/** `POST /api/breaker/trip`. */
export const tripBodySchema = z.strictObject({
  reason: text(500),
  /** Who asked, for the audit record; the function key does not say. */
  by: text(100).optional(),
});

/** `POST /api/breaker/reset`. */
export const resetBodySchema = z.strictObject({
  by: text(100).optional(),
  /** Break-glass: close the circuit and enable the trigger even when no orchestration waits. */
  force: z.boolean().optional(),
});

/**
 * `GET /api/breaker/history?limit=`. Strict about `limit`, which is ours; any other parameter is dropped,
 * because the Functions host reads the key from `?code=` and links pick up tracking parameters.
 */
export const historyQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** The actions of `POST /api/breaker/maintenance` (the one list; the dashboard's form posts `leave`). */
export const MAINTENANCE_ACTIONS = ['enter', 'leave'] as const;

/**
 * `POST /api/breaker/maintenance`: `{ action: "enter", reason, by? }` or `{ action: "leave", by? }`.
 * A reason is required to enter (it goes to the record, the logs and the dashboard), and refused on leave.
 */
export const maintenanceBodySchema = z.discriminatedUnion(
  'action',
  [
    z.strictObject({
      action: z.literal('enter'),
      reason: text(MAINTENANCE_REASON_MAX),
      by: text(MAINTENANCE_BY_MAX).optional(),
    }),
    z.strictObject({ action: z.literal('leave'), by: text(MAINTENANCE_BY_MAX).optional() }),
  ],
  { error: `action must be one of: ${MAINTENANCE_ACTIONS.join(', ')}` },
);
