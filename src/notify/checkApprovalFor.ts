import type { ApprovalTokenPayload, TokenRejection, TokenVerification } from './approvalTokenTypes';

/** Why an approval is refused: the token itself, or a valid token for something else. */
export type ApprovalRefusal = TokenRejection | 'other-function' | 'other-trip';

export type ApprovalCheck =
  | { readonly ok: true; readonly payload: ApprovalTokenPayload }
  | { readonly ok: false; readonly reason: ApprovalRefusal };

/**
 * A valid signature only says we issued the token; the caller must also check it is for the guarded
 * function and the trip that is open now (a link from an earlier trip must not restart this one).
 */
export function checkApprovalFor(
  verification: TokenVerification,
  current: { readonly functionName: string; readonly tripId: string },
): ApprovalCheck {
  if (!verification.ok) return verification;
  const { payload } = verification;
  if (payload.functionName !== current.functionName) return { ok: false, reason: 'other-function' };
  if (payload.tripId !== current.tripId) return { ok: false, reason: 'other-trip' };
  return { ok: true, payload };
}
