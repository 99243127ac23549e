/** Normalises any thrown value into an Error. */
export function ensureError(value: unknown): Error {
  if (value instanceof Error) return value;
  if (typeof value === 'string') return new Error(value);
  const shown: unknown = JSON.stringify(value);
  return new Error(`non-error thrown: ${typeof shown === 'string' ? shown : String(value)}`);
}
