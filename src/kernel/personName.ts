import { stripControlCharacters } from './boundText';

/** Longest name an audit record, status or email takes. */
export const MAX_PERSON_NAME_LENGTH = 100;

export type PersonNameResult =
  | { readonly ok: true; readonly name: string }
  | { readonly ok: false; readonly problem: 'empty' | 'too-long' };

/**
 * The one rule for a person's name from outside (an approver, who reset the breaker): control
 * characters become spaces, so a name cannot forge lines in logs or headers in emails; then trimmed,
 * not empty, at most MAX_PERSON_NAME_LENGTH characters.
 */
export function checkPersonName(value: string | null | undefined): PersonNameResult {
  const name = stripControlCharacters(value ?? '').trim();
  if (name === '') return { ok: false, problem: 'empty' };
  if (name.length > MAX_PERSON_NAME_LENGTH) return { ok: false, problem: 'too-long' };
  return { ok: true, name };
}
