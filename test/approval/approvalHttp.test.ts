import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { APPROVAL_FUNCTION } from '../../src/approval/registerApproval';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { type HttpCall, invokeHttp } from '../../sim/host/httpInvoke';
import { approvalFixture, type ApprovalFixture, FN, HOUR, KEYS } from './approvalFixture';

let f: ApprovalFixture;
beforeAll(async () => {
  f = await approvalFixture();
});
afterAll(() => f.close());
beforeEach(async () => {
  // Every test starts from a closed circuit with no raised events.
  f.store.failWith(undefined);
  const state = await f.store.getState();
  f.store.force({ state: 'CLOSED', tripId: state.tripId, since: f.clock.now() });
  f.durable.raised.length = 0;
});

const BASE = 'https://breakwater.example/api/approve';
const call = (c: HttpCall) => invokeHttp(APPROVAL_FUNCTION, c, { durableClient: f.durable.clientData });
const get = (token: string) => call({ method: 'GET', url: `${BASE}?token=${encodeURIComponent(token)}` });
const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call({
    method: 'POST',
    url: BASE,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

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

  it('treats an orchestration already in probation as approved', async () => {
    const tripId = await f.trip('probation');
    const res = await post({ token: f.sign(tripId), approver: 'Dana' });
    expect(res.status).toBe(409);
    expect(res.body).toContain('Already approved');
    expect(f.durable.raised).toEqual([]);
  });
});

describe('refusals: each its own page and status, nothing changed', () => {
  const cases: [
    string,
    () => Promise<{ token: string; approver?: string; headers?: Record<string, string> }>,
    number,
    string,
  ][] = [
    ['no token', () => Promise.resolve({ token: '' }), 400, 'Invalid link'],
    ['garbage token', () => Promise.resolve({ token: 'not-a-token' }), 400, 'Invalid link'],
    ['truncated token', async () => ({ token: f.sign(await f.trip()).slice(0, -5) }), 400, 'Invalid link'],
    [
      'forged signature',
      async () => ({ token: f.sign(await f.trip(), { key: 'an-attackers-key-0123456789abcdef0123' }) }),
      403,
      'Link not recognised',
    ],
    [
      'expired link',
      async () => {
        const tripId = await f.trip();
        const token = f.sign(tripId, { expiresAt: f.clock.now() + HOUR });
        f.clock.set(f.clock.now() + 2 * HOUR);
        return { token };
      },
      410,
      'Link expired',
    ],
    [
      'link for another function',
      async () => ({ token: f.sign(await f.trip(), { functionName: 'OtherFunction' }) }),
      403,
      'Link for another function',
    ],
    [
      'link for an older trip',
      async () => {
        const old = await f.trip();
        await f.store.transition('OPEN', 'CLOSED', old, f.clock.now());
        await f.trip();
        return { token: f.sign(old) };
      },
      409,
      'Link for an older trip',
    ],
    [
      'circuit already closed',
      async () => {
        const tripId = await f.trip();
        await f.store.transition('OPEN', 'CLOSED', tripId, f.clock.now());
        return { token: f.sign(tripId) };
      },
      409,
      'Circuit already closed',
    ],
    [
      'orchestration not yet waiting',
      async () => ({ token: f.sign(await f.trip('disabling')) }),
      409,
      'Not waiting for approval yet',
    ],
    [
      'orchestration missing',
      async () => {
        const tripId = await f.trip();
        f.durable.instances.delete(breakerInstanceId(tripId));
        return { token: f.sign(tripId) };
      },
      409,
      'Not waiting for approval yet',
    ],
  ];

  for (const [name, arrange, status, title] of cases) {
    it(`${name}: ${status} "${title}" on GET and POST`, async () => {
      const { token } = await arrange();
      const before = JSON.stringify(f.store.trips);
      const viaGet = await get(token);
      const viaPost = await post({ token, approver: 'Dana' });
      for (const res of [viaGet, viaPost]) {
        expect(res.status).toBe(status);
        expect(res.body).toContain(`<h1>${title}</h1>`);
        expect(res.headers['cache-control']).toBe('no-store');
      }
      expect(f.durable.raised).toEqual([]);
      expect(JSON.stringify(f.store.trips)).toBe(before);
    });
  }

  it('missing approver name: 400, the form again with the problem, nothing raised', async () => {
    const tripId = await f.trip();
    for (const approver of ['', '   ', 'x'.repeat(101)]) {
      const res = await post({ token: f.sign(tripId), approver });
      expect(res.status).toBe(400);
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain('Approve restart');
    }
    expect(f.durable.raised).toEqual([]);
  });

  it('a browser POST marked cross-site: 403, nothing raised', async () => {
    const tripId = await f.trip();
    const res = await post({ token: f.sign(tripId), approver: 'Dana' }, { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(res.body).toContain('<h1>Request refused</h1>');
    expect(f.durable.raised).toEqual([]);
  });

  it('a POST that is not a form: 400', async () => {
    const tripId = await f.trip();
    const res = await call({
      method: 'POST',
      url: BASE,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: f.sign(tripId), approver: 'Dana' }),
    });
    expect(res.status).toBe(400);
    expect(f.durable.raised).toEqual([]);
  });

  it('breaker store unreachable: 503 with Retry-After, nothing raised', async () => {
    const tripId = await f.trip();
    f.store.failWith(new Error('ECONNREFUSED'));
    const res = await post({ token: f.sign(tripId), approver: 'Dana' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
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
