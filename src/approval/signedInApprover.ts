import { PRINCIPAL_HEADER } from './approverName';

/** Headers App Service authentication sets for a signed-in user (and strips from client requests). */
export const PrincipalHeader = {
  name: PRINCIPAL_HEADER,
  /** Base64 JSON: `{ auth_typ, claims: [{ typ, val }], name_typ, role_typ }`. */
  principal: 'x-ms-client-principal',
} as const;

/**
 * Claims that carry a user's sign-in name in Microsoft Entra ID tokens, as the tenant administers it.
 * Not the `email` claims: Entra does not verify them (a guest or an app's user can carry any address
 * there), so a principal outside APPROVERS could otherwise approve by naming a listed address.
 */
const ADDRESS_CLAIMS = new Set([
  'preferred_username',
  'upn',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
]);

/** Far more than a real principal header; anything larger is not from the platform. */
const MAX_PRINCIPAL_HEADER = 16 * 1024;
const MAX_NAME = 256;

export type SignedInCheck =
  | { readonly ok: true; readonly approver: string }
  | { readonly ok: false; readonly refusal: 'not-signed-in' }
  | { readonly ok: false; readonly refusal: 'not-an-approver'; readonly principal: string };

export type SignedInRefusal = Extract<SignedInCheck, { ok: false }>['refusal'];

/**
 * APPROVAL_REQUIRE_SIGNED_IN: the request must carry an App Service principal, and one of its
 * addresses (the principal name, or an address claim of X-MS-CLIENT-PRINCIPAL) must be in APPROVERS,
 * compared case-insensitively. The audit record names the principal. Only sound with App Service
 * authentication on: the platform then removes these headers from what clients send.
 */
export function checkSignedInApprover(headers: Headers, approvers: readonly string[]): SignedInCheck {
  const name = clean(headers.get(PrincipalHeader.name));
  if (name === '') return { ok: false, refusal: 'not-signed-in' };
  const listed = new Set(approvers.map((a) => a.trim().toLowerCase()));
  const addresses = [name, ...principalAddresses(headers.get(PrincipalHeader.principal))];
  if (addresses.some((a) => listed.has(a.toLowerCase()))) return { ok: true, approver: name };
  return { ok: false, refusal: 'not-an-approver', principal: name };
}

function principalAddresses(encoded: string | null): string[] {
  if (encoded === null || encoded.length > MAX_PRINCIPAL_HEADER) return [];
  try {
    const decoded: unknown = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
    const claims = (decoded as { claims?: unknown }).claims;
    if (!Array.isArray(claims)) return [];
    return claims.flatMap((c: unknown) => {
      const { typ, val } = (c ?? {}) as { typ?: unknown; val?: unknown };
      return typeof typ === 'string' && ADDRESS_CLAIMS.has(typ) && typeof val === 'string'
        ? [clean(val)]
        : [];
    });
  } catch {
    return [];
  }
}

/** Trimmed, bounded, without control characters (the name reaches logs, records and emails). */
function clean(value: string | null): string {
  return (
    (value ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .trim()
      .slice(0, MAX_NAME)
  );
}

/**
 * The same rule for the JSON route that approves with a function key (the operator API's reset): with APPROVAL_REQUIRE_SIGNED_IN the key alone is not enough, because anyone
 * holding it could approve under any typed name. Returns the principal to record, or the answer to send.
 */
export function signedInForApi(
  headers: Headers,
  approvers: readonly string[] | undefined,
):
  | { readonly ok: true; readonly approver: string | undefined }
  | { readonly ok: false; readonly status: 401 | 403; readonly error: string } {
  if (approvers === undefined) return { ok: true, approver: undefined };
  const check = checkSignedInApprover(headers, approvers);
  if (check.ok) return check;
  return check.refusal === 'not-signed-in'
    ? {
        ok: false,
        status: 401,
        error:
          'APPROVAL_REQUIRE_SIGNED_IN is on: this call must be made signed in through App Service authentication (a bearer token or session), as a principal in APPROVERS; the function key alone approves nothing. Nothing was changed.',
      }
    : {
        ok: false,
        status: 403,
        error: `APPROVAL_REQUIRE_SIGNED_IN is on: ${check.principal} is not in APPROVERS. Nothing was changed.`,
      };
}
