/**
 * Reads at most `maxBytes` of a response body and releases the rest, so a downstream that answers with
 * megabytes cannot fill memory, and the connection goes back to the pool either way.
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const next = (await reader.read()) as { done: boolean; value?: Uint8Array };
      if (next.done || !next.value) break;
      chunks.push(next.value);
      size += next.value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

/** Outside text made safe for a log line or an error message: no control characters, bounded. */
export function sanitiseForMessage(text: string, maxChars = 200): string {
  const clean = text
    // eslint-disable-next-line no-control-regex -- stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > maxChars ? `${clean.slice(0, maxChars)}…` : clean;
}
