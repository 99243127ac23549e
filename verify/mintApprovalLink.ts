import { approvalLink } from '../src/approval/approvalLink';
import { signApprovalToken } from '../src/approval/approvalToken';

/** Verify links live long enough for the run to use at once, not the emailed link's 24 hours. */
export const VERIFY_LINK_TTL_MS = 15 * 60_000;

/**
 * A link to the public approval page for one trip, signed with the app's current key exactly as the
 * email activity signs it. The key and the token stay in memory: nothing prints or stores them.
 */
export function mintApprovalLink(
  baseUrl: string,
  signingKey: string,
  subject: { readonly functionName: string; readonly tripId: string },
  now: number,
): string {
  const token = signApprovalToken({ ...subject, expiresAt: now + VERIFY_LINK_TTL_MS }, [signingKey], now);
  return approvalLink(baseUrl, token);
}

/** The trip id an approval link's token names (its payload is signed, not secret), if it reads. */
export function tripIdOfLink(link: string): string | undefined {
  const token = URL.canParse(link) ? new URL(link).searchParams.get('token') : null;
  const payload = token?.split('.')[0];
  if (payload === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { tripId?: unknown };
    return typeof value.tripId === 'string' ? value.tripId : undefined;
  } catch {
    return undefined;
  }
}
