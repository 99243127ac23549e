/** App Service Authentication puts the signed-in user's name in this header (and strips client copies). */
export const PRINCIPAL_HEADER = 'x-ms-client-principal-name';

export const MAX_APPROVER_LENGTH = 100;

export type ApproverResult =
  | { readonly ok: true; readonly approver: string; readonly source: 'principal' | 'typed' }
  | { readonly ok: false; readonly problem: string };

/**
 * The approver for the audit record: the authenticated principal when App Service Authentication is
 * on, else the name typed into the form. Without authentication the header could be sent by anyone,
 * but then so could any typed name: both are "who says they approved", and the token is the credential.
 */
export function readApprover(headers: Headers, typed: string | null): ApproverResult {
  const principal = clean(headers.get(PRINCIPAL_HEADER));
  if (principal !== '') return check(principal, 'principal');
  return check(clean(typed), 'typed');
}

function check(name: string, source: 'principal' | 'typed'): ApproverResult {
  if (name === '') return { ok: false, problem: 'Please type your name: it goes into the audit record.' };
  if (name.length > MAX_APPROVER_LENGTH)
    return { ok: false, problem: `The name is too long (at most ${MAX_APPROVER_LENGTH} characters).` };
  return { ok: true, approver: name, source };
}

/** Trims and drops control characters, so a name cannot forge extra lines in logs or emails. */
function clean(value: string | null): string {
  // eslint-disable-next-line no-control-regex
  return (value ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
}
