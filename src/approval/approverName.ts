import { checkPersonName, MAX_PERSON_NAME_LENGTH } from '../kernel/personName';

/** App Service Authentication puts the signed-in user's name in this header (and strips client copies). */
export const PRINCIPAL_HEADER = 'x-ms-client-principal-name';

export const MAX_APPROVER_LENGTH = MAX_PERSON_NAME_LENGTH;

export type ApproverResult =
  | { readonly ok: true; readonly approver: string; readonly source: 'principal' | 'typed' }
  | { readonly ok: false; readonly problem: string };

/**
 * The approver for the audit record: the authenticated principal when App Service Authentication is
 * on, else the name typed into the form. Without authentication the header could be sent by anyone,
 * but then so could any typed name: both are "who says they approved", and the token is the credential.
 */
export function readApprover(headers: Headers, typed: string | null): ApproverResult {
  const principal = checkPersonName(headers.get(PRINCIPAL_HEADER));
  if (principal.ok || principal.problem === 'too-long') return toResult(principal, 'principal');
  return toResult(checkPersonName(typed), 'typed');
}

function toResult(
  checked: ReturnType<typeof checkPersonName>,
  source: 'principal' | 'typed',
): ApproverResult {
  if (checked.ok) return { ok: true, approver: checked.name, source };
  if (checked.problem === 'empty')
    return { ok: false, problem: 'Please type your name: it goes into the audit record.' };
  return { ok: false, problem: `The name is too long (at most ${MAX_APPROVER_LENGTH} characters).` };
}
