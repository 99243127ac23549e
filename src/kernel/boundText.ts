/**
 * C0 and C1 control characters, DEL, and the Unicode line and paragraph separators: any of them could
 * end a log line early and let the rest pose as a line of its own.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');

/** Default bound for text from outside that reaches a log line, a queue message or a record. */
export const DEFAULT_TEXT_BOUND = 500;

/**
 * Text from outside (event content, error messages built from it, names, parameters), made safe to
 * write anywhere: every control character becomes a space and the text is cut to `max` characters,
 * saying how much was left out. Never splits a surrogate pair.
 */
export function boundText(value: unknown, max: number = DEFAULT_TEXT_BOUND): string {
  const text = stripControlCharacters(typeof value === 'string' ? value : String(value));
  if (text.length <= max) return text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${text.slice(0, cut)}… (${text.length - cut} more characters)`;
}

/** Every control character (and line separator) replaced by a space. */
export function stripControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS, ' ');
}
