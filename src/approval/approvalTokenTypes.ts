/** What an approval link grants: restarting one function after one trip, until it expires. */
export interface ApprovalTokenPayload {
  readonly functionName: string;
  readonly tripId: string;
  /** Expiry, milliseconds since the epoch. */
  readonly expiresAt: number;
  /** Random, so two links for the same trip differ. */
  readonly nonce: string;
}

export type TokenRejection = 'malformed' | 'bad-signature' | 'expired';

export type TokenVerification =
  | { readonly ok: true; readonly payload: ApprovalTokenPayload; readonly keyIndex: number }
  | { readonly ok: false; readonly reason: TokenRejection };
