import { describe, expect, it } from 'vitest';

import { APPROVAL_FUNCTION } from '../../src/approval/registerApproval';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { FN, KEYS } from './approvalFixture';
import { BASE, call, f, get, post, setUpApprovalFixture } from './approvalHttpFixture';

setUpApprovalFixture();

describe('GET /api/approve (confirmation page)', () => {
  it('shows what tripped and an Approve form, with safe headers, and changes nothing', async () => {
    const tripId = await f.trip();
    await f.store.record([{ eventKey: 'p0-s1', kind: 'transient', message: 'boom' }], f.clock.now());
    const token = f.sign(tripId);
    const res = await get(token);
    expect(res.status).toBe(200);
    expect(res.body).toContain('Approve restart');
    expect(res.body).toContain(tripId);
    expect(res.body).toContain('sink answering 503');
    expect(res.body).toMatch(/Failures in window now<\/dt>\s*<dd>\s*1\b/);
    expect(res.body).toMatch(/Dead letters queued<\/dt>\s*<dd>3</);
    expect(res.body).toContain('awaiting-approval');
    expect(res.body).toContain(`name="token" value="${token}"`);
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'.*form-action 'self'/);
    expect(res.body).not.toContain('http-equiv="refresh"');
    expect(f.durable.raised).toEqual([]);
    expect(f.store.trips[0]?.approvedBy).toBeUndefined();
    expect((await f.store.getState()).state).toBe('OPEN');
  });

  it('hides the name field when App Service Authentication names the user', async () => {
    const tripId = await f.trip();
    const res = await call({
      method: 'GET',
      url: `${BASE}?token=${f.sign(tripId)}`,
      headers: { 'x-ms-client-principal-name': 'ops@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Approving as <strong>ops@example.com</strong>');
    expect(res.body).not.toContain('name="approver"');
  });
});

describe('POST /api/approve', () => {
  it('raises Approval for the trip with the typed name, records it, and a second click says already approved', async () => {
    const tripId = await f.trip();
    const token = f.sign(tripId);
    const res = await post({ token, approver: '  Dana Ops ' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Restart approved');
    expect(f.durable.raised).toEqual([
      { instanceId: breakerInstanceId(tripId), name: 'Approval', data: { tripId, approvedBy: 'Dana Ops' } },
    ]);
    expect(f.store.trips[0]).toMatchObject({ tripId, approvedBy: 'Dana Ops', approvedAt: f.clock.now() });

    for (const again of [await get(token), await post({ token, approver: 'Someone Else' })]) {
      expect(again.status).toBe(409);
      expect(again.body).toContain('Already approved');
      expect(again.body).toContain('Approved by <strong>Dana Ops</strong>');
    }
    expect(f.durable.raised).toHaveLength(1);
  });

  it('prefers the authenticated principal over a typed name', async () => {
    const tripId = await f.trip();
    const res = await post(
      { token: f.sign(tripId), approver: 'typed' },
      { 'x-ms-client-principal-name': 'ops@example.com' },
    );
    expect(res.status).toBe(200);
    expect(f.durable.raised[0]?.data).toEqual({ tripId, approvedBy: 'ops@example.com' });
  });

  it('accepts a link signed with the previous key (rotation)', async () => {
    const tripId = await f.trip();
    const res = await post({ token: f.sign(tripId, { key: KEYS[1] }), approver: 'Dana' });
    expect(res.status).toBe(200);
    expect(f.durable.raised).toHaveLength(1);
  });

  it('takes an approval clicked while the orchestration is still finishing the trip email (notifying)', async () => {
    // On the real extension the episode after the email can come many seconds later; the link must work.
    const tripId = await f.trip('notifying');
    const res = await post({ token: f.sign(tripId), approver: 'Dana' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Restart approved');
    expect(f.durable.raised).toEqual([
      { instanceId: breakerInstanceId(tripId), name: 'Approval', data: { tripId, approvedBy: 'Dana' } },
    ]);
  });

  it('in notifying, refuses the link of the previous trip and a replay of the link just used', async () => {
    const previous = await f.trip();
    await f.store.transition('OPEN', 'CLOSED', previous, f.clock.now());
    const tripId = await f.trip('notifying');
    const stale = await post({ token: f.sign(previous), approver: 'Dana' });
    expect(stale.status).toBe(409);
    expect(stale.body).toContain('<h1>Link for an older trip</h1>');
    const token = f.sign(tripId);
    expect((await post({ token, approver: 'Dana' })).status).toBe(200);
    // The email is still being sent: the phase has not moved on, yet the second click raises nothing.
    const replay = await post({ token, approver: 'Eve' });
    expect(replay.status).toBe(409);
    expect(replay.body).toContain('<h1>Already approved</h1>');
    expect(f.durable.raised).toEqual([
      { instanceId: breakerInstanceId(tripId), name: 'Approval', data: { tripId, approvedBy: 'Dana' } },
    ]);
  });

  it('treats an orchestration already in probation as approved', async () => {
    const tripId = await f.trip('probation');
    const res = await post({ token: f.sign(tripId), approver: 'Dana' });
    expect(res.status).toBe(409);
    expect(res.body).toContain('Already approved');
    expect(f.durable.raised).toEqual([]);
  });
});

describe('injection attempts', () => {
  it('escapes the approver name everywhere it is shown', async () => {
    const tripId = await f.trip();
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';
    const token = f.sign(tripId);
    const res = await post({ token, approver: evil });
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<img');
    expect(res.body).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;',
    );
    const again = await get(token);
    expect(again.body).not.toContain('<script>alert');
    expect(again.body).toContain('&lt;script&gt;');
  });

  it('escapes a principal name from the header', async () => {
    const tripId = await f.trip();
    const res = await call({
      method: 'GET',
      url: `${BASE}?token=${f.sign(tripId)}`,
      headers: { 'x-ms-client-principal-name': '<b onmouseover=x>' },
    });
    expect(res.body).not.toContain('<b onmouseover');
    expect(res.body).toContain('&lt;b onmouseover=x&gt;');
  });

  it('never reflects the query string or a bogus token into the page', async () => {
    const payloads = ['<script>alert(1)</script>', '"><svg onload=alert(1)>', "'-alert(1)-'"];
    for (const p of payloads) {
      const res = await call({
        method: 'GET',
        url: `${BASE}?token=${encodeURIComponent(p)}&x=${encodeURIComponent(p)}`,
      });
      expect(res.status).toBe(400);
      expect(res.body).not.toContain(p);
      expect(res.body).not.toContain('alert(1)');
    }
  });

  it('escapes trip data (reason, error samples) taken from the store', async () => {
    const tripId = await f.trip();
    await f.store.updateTrip(tripId, {
      reason: '<iframe src=//evil>',
      sample: [{ eventKey: '<k>', kind: 'transient', message: '</code><script>x</script>' }],
    });
    const res = await get(f.sign(tripId));
    expect(res.status).toBe(200);
    expect(res.body).not.toMatch(/<iframe|<script>x|<k>/);
    expect(res.body).toContain('&lt;iframe src=//evil&gt;');
  });
});

it('registers GET and POST on route approve, anonymous, with a durable client input', async () => {
  const { httpTriggerOf } = await import('../../sim/host/httpInvoke');
  expect(httpTriggerOf(APPROVAL_FUNCTION)).toEqual({
    route: 'approve',
    methods: ['GET', 'POST'],
    authLevel: 'anonymous',
  });
  expect(FN).toBe('ProcessSensorEvents');
});
