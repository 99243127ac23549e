import { z } from 'zod';

/**
 * `POST /api/breaker/fault`: `{ "down": true, "minutes": 5, "by": "verify run r-1" }` sets a fault for
 * `minutes` (required, at most FAULT_SWITCH_MAX_MINUTES); `{ "down": false }` clears it. Strict: an
 * unknown field is refused rather than ignored.
 */
export function faultBodySchema(maxMinutes: number) {
  return z
    .strictObject({
      down: z.boolean(),
      minutes: z
        .number()
        .int('must be a whole number of minutes')
        .min(1, 'must be at least 1')
        .max(maxMinutes, `must be at most ${maxMinutes} (FAULT_SWITCH_MAX_MINUTES)`)
        .optional(),
      by: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(100, 'must be at most 100 characters')
        // eslint-disable-next-line no-control-regex
        .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
        .optional(),
    })
    .refine((b) => !b.down || b.minutes !== undefined, {
      error: 'is required when down is true',
      path: ['minutes'],
    });
}
