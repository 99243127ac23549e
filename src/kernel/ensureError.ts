/** Normalises any thrown value into an Error. */
export function ensureError(value: unknown): Error {
  if (value instanceof Error) return value;
  if (typeof value === 'string') return new Error(value);
  const shown: unknown = JSON.stringify(value);
  return new Error(`non-error thrown: ${typeof shown === 'string' ? shown : String(value)}`);
}

/**
 * What went wrong, in words: the message, or for an AggregateError (Node's connect error when every
 * address of a host refused, for one) its inner messages, never a bare class name when there is more.
 */
export function errorMessage(value: unknown): string {
  const error = ensureError(value);
  if (error instanceof AggregateError && error.errors.length > 0) {
    const inner = [...new Set(error.errors.map(errorMessage))];
    return [error.message, ...inner].filter((text) => text !== '').join('; ');
  }
  return error.message.trim() === '' ? error.name : error.message;
}
