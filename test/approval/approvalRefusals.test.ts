import { describe, expect, it } from 'vitest';

import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { HOUR } from './approvalFixture';
import { BASE, call, f, get, post, setUpApprovalFixture } from './approvalHttpFixture';

setUpApprovalFixture();

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
