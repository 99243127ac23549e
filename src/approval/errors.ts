/** Typed errors of the approval links, each with a stable `code`. */

/** Thrown when asked to sign something that could never verify (already expired, bad fields). */
export class ApprovalTokenSigningError extends Error {
  readonly code = 'APPROVAL_TOKEN_SIGNING';
  override readonly name = 'ApprovalTokenSigningError';
}
