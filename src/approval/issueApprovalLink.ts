import { approvalLink, signApprovalToken } from './approvalToken';

export interface IssuedApprovalLink {
  readonly url: string;
  readonly expiresAt: number;
}

/**
 * Signs a fresh token for one trip and builds its link, valid for `linkTtlHours`. Call it inside the
 * email activity (not the orchestrator): the nonce is random and the link, a credential until it
 * expires, then never enters the orchestration history.
 */
export function issueApprovalLink(
  approval: Pick<ApprovalConfig, 'signingKeys' | 'linkTtlHours' | 'publicBaseUrl'>,
  subject: { readonly functionName: string; readonly tripId: string },
  now: number,
  randomBytes?: (size: number) => Buffer,
): IssuedApprovalLink {
  const expiresAt = now + approval.linkTtlHours * 3_600_000;
  const token = signApprovalToken({ ...subject, expiresAt }, approval.signingKeys, now, randomBytes);
  return { url: approvalLink(approval.publicBaseUrl, token), expiresAt };
}

export interface ApprovalConfig {
  /** Current key first; a previous key, when set, is still accepted. */
  readonly signingKeys: readonly [string, ...string[]];
  readonly linkTtlHours: number;
  readonly reminderMinutes: number;
  readonly maxReminders: number;
  readonly publicBaseUrl: string;
}
