import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { APPROVAL_FUNCTION } from '../../src/approval/registerApproval';
import type { DownstreamProbe } from '../../src/sinks/downstreamProbe';
import { type ApprovalFixture, approvalFixture, ENVIRONMENT } from './approvalFixture';

let f: ApprovalFixture;
beforeAll(async () => {
  f = await approvalFixture();
});
afterAll(() => f.close());
beforeEach(async () => {
  const state = await f.store.getState();
  f.store.force({ state: 'CLOSED', tripId: state.tripId, since: f.clock.now() });
  f.durable.raised.length = 0;
});

const BASE = 'https://breakwater.example/api/approve';
const get = (token: string) =>
  invokeHttp(
    APPROVAL_FUNCTION,
    { method: 'GET', url: `${BASE}?token=${encodeURIComponent(token)}` },
    { durableClient: f.durable.clientData },
  );
const post = (fields: Record<string, string>) =>
  invokeHttp(
    APPROVAL_FUNCTION,
    {
      method: 'POST',
      url: BASE,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    },
    { durableClient: f.durable.clientData },
  );

async function tripWithProbe(probe: DownstreamProbe): Promise<{ tripId: string; token: string }> {
  const tripId = await f.trip();
  await f.store.updateTrip(tripId, { probe });
  return { tripId, token: f.sign(tripId) };
}

describe('the approval page and the downstream probe', () => {
  it('when the last probe failed: shows the failure and refuses a plain approval until "approve anyway" is ticked', async () => {
    const now = f.clock.now();
    const { token } = await tripWithProbe({
      at: now - 20_000,
      ok: false,
      error: '503 from the table',
      since: now - 14 * 60_000,
    });

    const page = await get(token);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(
      /still failing: 503 from the table, since 11:46 UTC \(last probe 11:59:40 UTC\)/,
    );
    expect(page.body).toMatch(/<input type="checkbox" id="anyway" name="anyway" value="yes" required/);
    expect(page.body).toContain('>Approve anyway</button>');

    const plain = await post({ token, approver: 'Dana' });
    expect(plain.status).toBe(400);
    expect(plain.body).toContain('Tick &quot;Approve anyway&quot; to restart regardless');
    expect(f.durable.raised).toEqual([]);

    const anyway = await post({ token, approver: 'Dana', anyway: 'yes' });
    expect(anyway.status).toBe(200);
    expect(f.durable.raised).toHaveLength(1);
  });

  it('when the downstream is healthy: says for how long, and a plain approval works', async () => {
    const now = f.clock.now();
    const { token } = await tripWithProbe({ at: now - 10_000, ok: true, since: now - 4 * 60_000 - 10_000 });
    const page = await get(token);
    expect(page.body).toContain('downstream healthy for 4 min (last probe 11:59:50 UTC)');
    expect(page.body).not.toContain('id="anyway"');
    expect(page.body).toContain('>Approve restart</button>');

    const approved = await post({ token, approver: 'Dana' });
    expect(approved.status).toBe(200);
    expect(f.durable.raised).toHaveLength(1);
  });

  it('names the environment on every page, and the page after approving says what happens next', async () => {
    const now = f.clock.now();
    const { token } = await tripWithProbe({ at: now, ok: true, since: now });
    const page = await get(token);
    expect(page.body).toContain(`<title>Approve restart? · ${ENVIRONMENT} · Breakwater</title>`);
    expect(page.body).toContain(`Environment <strong id="environment">${ENVIRONMENT}</strong>`);

    const approved = await post({ token, approver: 'Dana' });
    expect(approved.body).toContain(`<strong id="environment">${ENVIRONMENT}</strong>`);
    expect(approved.body).toContain('<a id="dashboard-link" href="breaker/dashboard">');
    expect(approved.body).toContain('What happens next');
    expect(approved.body).toMatch(/closes after 5 min of probation with no more than 10 failures/);

    const refused = await get('not-a-token');
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(`<strong id="environment">${ENVIRONMENT}</strong>`);
  });
});
