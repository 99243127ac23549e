import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { FN, type OperatorFixture, operatorFixture } from './operatorFixture';

let f: OperatorFixture;
beforeAll(async () => {
  f = await operatorFixture();
});
afterAll(() => f.close());

const BASE = 'https://breakwater.example/api/breaker';
const send = (path: string, method: string, body?: string, contentType = 'application/json') =>
  invokeHttp(
    path === 'maintenance'
      ? OperatorFunction.maintenance
      : path === 'reset'
        ? OperatorFunction.reset
        : OperatorFunction.trip,
    {
      method,
      url: `${BASE}/${path}?code=the-key`,
      headers: { 'content-type': contentType },
      ...(body === undefined ? {} : { body }),
    },
    { durableClient: f.durable.clientData },
  );
const maintenance = (body: unknown, method = 'POST') => send('maintenance', method, JSON.stringify(body));
const parsed = (r: { body: string }) => JSON.parse(r.body) as Record<string, unknown>;
const dashboard = () =>
  invokeHttp(OperatorFunction.dashboard, { method: 'GET', url: `${BASE}/dashboard?code=the-key` });
const status = async () =>
  parsed(
    await invokeHttp(
      OperatorFunction.status,
      { method: 'GET', url: `${BASE}/status` },
      { durableClient: f.durable.clientData },
    ),
  );

/** What an operator can see: the record, the trigger, and the breaker. */
const snapshot = async () => ({
  maintenance: await f.maintenance.current(),
  disabled: f.triggerSwitch.disabled.get(FN),
  breaker: await f.store.getState(),
});

beforeEach(async () => {
  // Each test starts out of maintenance with the trigger enabled and the circuit CLOSED.
  await f.maintenance.leave('test setup', f.clock.now());
  f.triggerSwitch.disabled.set(FN, false);
  f.triggerSwitch.failWith = undefined;
  const state = await f.store.getState();
  if (state.state !== 'CLOSED') await f.store.transition(state.state, 'CLOSED', state.tripId, f.clock.now());
});

describe('POST /api/breaker/maintenance', () => {
  it('enters with a reason: recorded with who and since when, trigger disabled, shown by status', async () => {
    const entered = await maintenance({ action: 'enter', reason: 'moving to the new app', by: 'Ana' });
    expect(entered.status).toBe(200);
    const since = new Date(f.clock.now()).toISOString();
    expect(parsed(entered)).toEqual({
      action: 'entered',
      maintenance: { reason: 'moving to the new app', by: 'Ana', since },
      triggerDisabled: true,
    });
    expect(f.triggerSwitch.disabled.get(FN)).toBe(true);
    expect(entered.logs.map((l) => l.message)).toContainEqual(
      expect.stringMatching(/maintenance: ENTERED by Ana: moving to the new app/),
    );
    expect(await status()).toMatchObject({
      triggerDisabled: true,
      maintenance: { reason: 'moving to the new app', by: 'Ana', since },
    });
    const get = await send('maintenance', 'GET');
    expect(parsed(get)).toMatchObject({ maintenance: { reason: 'moving to the new app' } });
  });

  it('leaves: the record ends (kept in the history) and the trigger is enabled again', async () => {
    await maintenance({ action: 'enter', reason: 'planned downstream upgrade' });
    f.clock.advance(30 * 60_000);
    const left = await maintenance({ action: 'leave', by: 'Ben' });
    expect(left.status).toBe(200);
    expect(parsed(left)).toMatchObject({
      action: 'left',
      triggerEnabled: true,
      ended: { reason: 'planned downstream upgrade', by: 'operator API', leftBy: 'Ben' },
    });
    expect(f.triggerSwitch.disabled.get(FN)).toBe(false);
    expect(await f.maintenance.current()).toBeUndefined();
    expect(parsed(await send('maintenance', 'GET'))).toMatchObject({
      maintenance: null,
      ended: [expect.objectContaining({ reason: 'planned downstream upgrade', leftBy: 'Ben' })],
    });
  });

  it('leaving while the breaker is OPEN keeps the trigger disabled for that trip’s approval', async () => {
    await maintenance({ action: 'enter', reason: 'migration' });
    const tripId = await f.store.openManually('downstream down', f.clock.now());
    const left = await maintenance({ action: 'leave' });
    expect(left.status).toBe(200);
    expect(parsed(left)).toMatchObject({ action: 'left', triggerEnabled: false });
    expect(String(parsed(left).note)).toContain(`the breaker is OPEN (trip ${tripId})`);
    expect(f.triggerSwitch.disabled.get(FN)).toBe(true);
    expect(await f.maintenance.current()).toBeUndefined();
  });

  it('a forced reset during maintenance closes the circuit but leaves the trigger off', async () => {
    await maintenance({ action: 'enter', reason: 'migration' });
    await f.store.openManually('drill', f.clock.now());
    const forced = await send('reset', 'POST', JSON.stringify({ force: true }));
    expect(forced.status).toBe(200);
    expect(parsed(forced)).toMatchObject({ action: 'forced-closed', triggerEnabled: false });
    expect(String(parsed(forced).note)).toMatch(/maintenance mode holds the trigger off/);
    expect((await f.store.getState()).state).toBe('CLOSED');
    expect(f.triggerSwitch.disabled.get(FN)).toBe(true);
  });

  it('a forced reset while the maintenance record does not read leaves the trigger off and says why', async () => {
    await f.store.openManually('drill', f.clock.now());
    f.triggerSwitch.disabled.set(FN, true);
    const current = f.maintenance.current.bind(f.maintenance);
    // The record's storage answers 503 (Azurite cannot be made to): unknown is not "no maintenance".
    Object.assign(f.maintenance, { current: () => Promise.reject(new Error('storage said 503')) });
    try {
      const forced = await send('reset', 'POST', JSON.stringify({ force: true }));
      expect(forced.status).toBe(200);
      expect(parsed(forced)).toMatchObject({ action: 'forced-closed', triggerEnabled: false });
      expect(String(parsed(forced).note)).toMatch(
        /maintenance record did not read: the trigger was left disabled/,
      );
    } finally {
      Object.assign(f.maintenance, { current });
    }
    expect((await f.store.getState()).state).toBe('CLOSED');
    expect(f.triggerSwitch.disabled.get(FN)).toBe(true);
  });

  it('a trigger switch that fails on enter: recorded anyway, and the answer says the watchdog finishes it', async () => {
    f.triggerSwitch.failWith = new Error('ARM said 503');
    const entered = await maintenance({ action: 'enter', reason: 'migration' });
    expect(entered.status).toBe(502);
    expect(String(parsed(entered).error)).toMatch(
      /recorded, but the trigger could not be disabled: ARM said 503/,
    );
    expect(await f.maintenance.current()).toMatchObject({ reason: 'migration' });
  });
});

describe('bad input changes nothing and says what is wrong', () => {
  it.each([
    ['a missing reason', { action: 'enter' }, 400, /reason/],
    [
      'an empty reason',
      { action: 'enter', reason: '   ' },
      400,
      /"path":"reason","message":"must not be empty"/,
    ],
    [
      'an oversized reason',
      { action: 'enter', reason: 'x'.repeat(501) },
      400,
      /"path":"reason","message":"must be at most 500 characters"/,
    ],
    ['a reason with a line break', { action: 'enter', reason: 'a\nforged line' }, 400, /control characters/],
    ['an unknown action', { action: 'pause', reason: 'x' }, 400, /action must be one of: enter, leave/],
    ['no action', { reason: 'x' }, 400, /action must be one of/],
    ['an unknown field', { action: 'leave', force: true }, 400, /force|Unrecognized/],
  ])('%s', async (_what, body, code, message) => {
    const before = await snapshot();
    const answer = await maintenance(body);
    expect(answer.status).toBe(code);
    expect(JSON.stringify(parsed(answer))).toMatch(message);
    expect(await snapshot()).toEqual(before);
  });

  it('a body that is not JSON', async () => {
    const answer = await send('maintenance', 'POST', '{not json');
    expect(answer.status).toBe(400);
    expect(parsed(answer).error).toBe('body is not valid JSON');
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('the wrong method (%s)', async (method) => {
    const before = await snapshot();
    const answer = await maintenance({ action: 'enter', reason: 'x' }, method);
    expect(answer.status).toBe(405);
    expect(parsed(answer).error).toMatch(/use GET or POST/);
    expect(await snapshot()).toEqual(before);
  });

  it('entering twice: 409 naming the maintenance in force, which stays as it was', async () => {
    await maintenance({ action: 'enter', reason: 'first', by: 'Ana' });
    const before = await snapshot();
    const again = await maintenance({ action: 'enter', reason: 'second', by: 'Ben' });
    expect(again.status).toBe(409);
    expect(parsed(again)).toMatchObject({
      error: 'already in maintenance; nothing was changed',
      maintenance: { reason: 'first', by: 'Ana' },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('leaving when not in maintenance: 409, and a disabled trigger stays disabled', async () => {
    f.triggerSwitch.disabled.set(FN, true);
    const before = await snapshot();
    const answer = await maintenance({ action: 'leave' });
    expect(answer.status).toBe(409);
    expect(parsed(answer).error).toBe('not in maintenance; nothing was changed');
    expect(await snapshot()).toEqual(before);
  });
});

describe('the dashboard', () => {
  it('shows the maintenance with reason, who and since when, and a form that leaves it', async () => {
    await maintenance({ action: 'enter', reason: 'cut-over <b>to v2</b>', by: 'Ana' });
    f.clock.advance(90 * 60_000);
    const page = (await dashboard()).body;
    expect(page).toContain('In maintenance');
    expect(page).toContain('cut-over &lt;b&gt;to v2&lt;/b&gt;');
    expect(page).toMatch(/id="maintenance-by">Ana</);
    expect(page).toMatch(/id="maintenance-since">\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(1 h 30 min\)/);
    expect(page).toContain('<form method="post" action="maintenance?code=the-key">');
    expect(page).toContain('name="action" value="leave"');

    const left = await send('maintenance', 'POST', 'action=leave&by=', 'application/x-www-form-urlencoded');
    expect(left.status).toBe(200);
    expect(left.headers['content-type'] ?? left.headers['Content-Type']).toMatch(/text\/html/);
    expect(left.body).toContain('Maintenance left: the trigger is enabled again');
    expect(left.body).toContain('href="dashboard?code=the-key"');
    expect(f.triggerSwitch.disabled.get(FN)).toBe(false);
    expect((await dashboard()).body).toContain('Enter maintenance');
  });

  it('a form without a reason gets a page that says so, and nothing changes', async () => {
    const before = await snapshot();
    const answer = await send(
      'maintenance',
      'POST',
      'action=enter&reason=&by=Ana',
      'application/x-www-form-urlencoded',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('Nothing was changed');
    expect(answer.body).toContain('reason: must not be empty');
    expect(await snapshot()).toEqual(before);
  });
});
