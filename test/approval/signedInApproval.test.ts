/**
 * APPROVAL_REQUIRE_SIGNED_IN: the approval needs an App Service principal in APPROVERS, with the
 * headers the platform sets (X-MS-CLIENT-PRINCIPAL-NAME, X-MS-CLIENT-PRINCIPAL).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type HttpCall, invokeHttp } from '../../sim/host/httpInvoke';
import { APPROVAL_FUNCTION } from '../../src/approval/registerApproval';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { type ApprovalFixture, approvalFixture } from './approvalFixture';

const APPROVERS = ['oncall@example.com', 'Lead@Example.com'];
let f: ApprovalFixture;
beforeAll(async () => {
  f = await approvalFixture({ signedInApprovers: APPROVERS });
});
afterAll(() => f.close());
beforeEach(async () => {
  const state = await f.store.getState();
  f.store.force({ state: 'CLOSED', tripId: state.tripId, since: f.clock.now() });
  f.durable.raised.length = 0;
});

const BASE = 'https://breakwater.example/api/approve';
const call = (c: HttpCall) => invokeHttp(APPROVAL_FUNCTION, c, { durableClient: f.durable.clientData });
const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call({
    method: 'POST',
    url: BASE,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

/** X-MS-CLIENT-PRINCIPAL as App Service encodes it for Microsoft Entra ID. */
const principalHeader = (claims: Record<string, string>) =>
  Buffer.from(
    JSON.stringify({
      auth_typ: 'aad',
      claims: Object.entries(claims).map(([typ, val]) => ({ typ, val })),
      name_typ: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
      role_typ: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role',
    }),
  ).toString('base64');

describe('approval with APPROVAL_REQUIRE_SIGNED_IN', () => {
  it('no principal: the sign-in page (401), on GET and POST, and nothing is approved', async () => {
    const tripId = await f.trip();
    const token = f.sign(tripId);
    const page = await call({ method: 'GET', url: `${BASE}?token=${encodeURIComponent(token)}` });
    const posted = await post({ token, approver: 'oncall@example.com' });
    for (const res of [page, posted]) {
      expect(res.status).toBe(401);
      expect(res.body).toContain('data-refusal="not-signed-in"');
      expect(res.body).toContain(
        `/.auth/login/aad?post_login_redirect_uri=${encodeURIComponent(`/api/approve?token=${encodeURIComponent(token)}`)}`.replace(
          /&/g,
          '&amp;',
        ),
      );
    }
    expect(f.durable.raised).toEqual([]);
    expect(f.store.trips[0]?.approvedBy).toBeUndefined();
    expect((await f.store.getState()).state).toBe('OPEN');
  });

  it('a principal not in APPROVERS: refused (403) with its name on the page, nothing approved', async () => {
    const tripId = await f.trip();
    const res = await post(
      { token: f.sign(tripId), approver: 'oncall@example.com' },
      {
        'x-ms-client-principal-name': 'visitor@example.com',
        'x-ms-client-principal': principalHeader({ preferred_username: 'visitor@example.com' }),
      },
    );
    expect(res.status).toBe(403);
    expect(res.body).toContain('data-refusal="not-an-approver"');
    expect(res.body).toContain('<strong>visitor@example.com</strong>');
    expect(f.durable.raised).toEqual([]);
    expect(f.store.trips[0]?.approvedBy).toBeUndefined();
  });

  it('a listed principal approves; the audit record names the principal, not a typed name', async () => {
    const tripId = await f.trip();
    const res = await post(
      { token: f.sign(tripId), approver: 'Someone Typed' },
      { 'x-ms-client-principal-name': 'lead@example.com' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain('Restart approved');
    expect(f.durable.raised).toEqual([
      {
        instanceId: breakerInstanceId(tripId),
        name: 'Approval',
        data: { tripId, approvedBy: 'lead@example.com' },
      },
    ]);
    expect(f.store.trips[0]).toMatchObject({ tripId, approvedBy: 'lead@example.com' });
  });

  it('matches an address claim of X-MS-CLIENT-PRINCIPAL when the name is not an address', async () => {
    const tripId = await f.trip();
    const res = await post(
      { token: f.sign(tripId) },
      {
        'x-ms-client-principal-name': 'On-call Engineer',
        'x-ms-client-principal': principalHeader({
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn': 'OnCall@example.com',
        }),
      },
    );
    expect(res.status).toBe(200);
    expect(f.store.trips[0]).toMatchObject({ tripId, approvedBy: 'On-call Engineer' });
  });

  it('ignores the email claims: a principal not in APPROVERS whose unverified email is listed is refused', async () => {
    const tripId = await f.trip();
    for (const typ of [
      'email',
      'emails',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    ]) {
      const res = await post(
        { token: f.sign(tripId) },
        {
          'x-ms-client-principal-name': 'guest@partner.example',
          'x-ms-client-principal': principalHeader({ [typ]: 'oncall@example.com' }),
        },
      );
      expect(res.status).toBe(403);
      expect(res.body).toContain('data-refusal="not-an-approver"');
    }
    expect(f.durable.raised).toEqual([]);
  });

  it('still refuses a bad token with its own page before looking at the principal', async () => {
    await f.trip();
    const res = await post({ token: 'not-a-token' }, { 'x-ms-client-principal-name': 'lead@example.com' });
    expect(res.status).toBe(400);
    expect(f.durable.raised).toEqual([]);
  });
});
