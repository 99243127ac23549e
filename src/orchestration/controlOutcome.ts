import { ensureError } from '../processing/errors';
import type { ControlOutcome } from './breakerStatus';

/** HTTP statuses that retrying cannot fix: bad request, missing credentials or role, no such app. */
const PERMANENT_STATUSES = new Set([400, 401, 403, 404]);

/**
 * Whether a trigger-switch failure is permanent (report it, do not retry). Looks at an explicit
 * `permanent` flag first, then an HTTP `statusCode` (ARM and RestError carry one); anything else is
 * treated as transient and left to the orchestration's retry policy.
 */
export function isPermanentControlError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { permanent, statusCode } = error as { permanent?: unknown; statusCode?: unknown };
  if (typeof permanent === 'boolean') return permanent;
  return typeof statusCode === 'number' && PERMANENT_STATUSES.has(statusCode);
}

/** A permanent failure as an outcome; a transient one is rethrown for `callActivityWithRetry`. */
export function permanentOutcomeOrThrow(error: unknown): ControlOutcome {
  const e = ensureError(error);
  if (!isPermanentControlError(error)) throw e;
  return { ok: false, permanent: true, message: e.message };
}
