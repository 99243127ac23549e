import { PoisonEventError } from '../hub/errors';

/**
 * Table keys built from event content, safe for the service's key rules (no `/ \ # ?`, no control
 * characters, at most 1 KiB = 512 UTF-16 code units). Letters, digits, `_`, `-` and `.` stay as they
 * are, so the rows written before this encoding (keys of those characters only) keep their keys; every
 * other code unit, `~` included, becomes `~` and four hex digits. Reversible and collision-free: `~`
 * never appears unescaped.
 */
const KEEP = /[A-Za-z0-9_.-]/;
const MAX_KEY_UNITS = 512;

export function encodeTableKey(text: string): string {
  let encoded = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charAt(i);
    encoded += KEEP.test(unit) ? unit : `~${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  if (encoded.length > MAX_KEY_UNITS)
    throw new PoisonEventError(
      `a table key built from the event is ${encoded.length} characters once encoded; the service allows ${MAX_KEY_UNITS}`,
    );
  return encoded;
}

export function decodeTableKey(key: string): string {
  return key.replace(/~([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
