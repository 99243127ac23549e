import { z } from 'zod';

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
