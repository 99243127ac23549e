import type { ApprovalTokenPayload } from './approvalTokenTypes';

const FUNCTION_NAME = /^[A-Za-z0-9_]{1,128}$/;
// Trip ids come from the breaker store; printable ASCII without spaces, bounded.
const TRIP_ID = /^[\x21-\x7e]{1,128}$/;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
const FIELDS = ['v', 'functionName', 'tripId', 'expiresAt', 'nonce'];

/** Strict parse of a token's decoded payload: exactly the known fields, each of the right type and size. */
export function parseApprovalPayload(json: string): ApprovalTokenPayload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== FIELDS.length || !FIELDS.every((f) => keys.includes(f))) return undefined;
  const { v, functionName, tripId, expiresAt, nonce } = record;
  if (v !== 1) return undefined;
  if (typeof functionName !== 'string' || !FUNCTION_NAME.test(functionName)) return undefined;
  if (typeof tripId !== 'string' || !TRIP_ID.test(tripId)) return undefined;
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return undefined;
  if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt) || expiresAt <= 0) return undefined;
  return { functionName, tripId, expiresAt, nonce };
}
