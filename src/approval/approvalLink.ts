/** Route of the approval HTTP function (`app.http('approve', ...)` serves `/api/approve`). */
export const APPROVAL_ROUTE = 'approve';

/** The link emailed to approvers: `${publicBaseUrl}/api/approve?token=...`. */
export function approvalLink(publicBaseUrl: string, token: string): string {
  const url = new URL(`${publicBaseUrl.replace(/\/+$/, '')}/api/${APPROVAL_ROUTE}`);
  url.searchParams.set('token', token);
  return url.toString();
}
