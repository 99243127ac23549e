import type { EmailMessage } from '../messages/emailMessage';

/** What the notice ledger keeps of an email: the rendered message, without the identity (derived again). */
export type StoredEmail = Omit<EmailMessage, 'identity'>;

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** An email as the ledger stored it, checked field by field; undefined when it is not one. */
export function reviveStoredEmail(value: unknown): StoredEmail | undefined {
  if (!isRecord(value)) return undefined;
  const { to, subject, text, html } = value;
  if (!Array.isArray(to) || !to.every(isString)) return undefined;
  if (!isString(subject) || !isString(text) || !isString(html)) return undefined;
  return { to, subject, text, html };
}
