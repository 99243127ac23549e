import { describe, expect, it } from 'vitest';

import { httpTriggerOf } from '../../sim/host/httpInvoke';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { FN } from './operatorFixture';
import { call, dashboard, f, setUpOperatorFixture, status } from './operatorHttpFixture';

setUpOperatorFixture();

const setPhase = (tripId: string, phase: string, extra: Record<string, unknown> = {}) => {
  const instance = f.durable.instances.get(breakerInstanceId(tripId));
  if (!instance) throw new Error('no instance');
  instance.customStatus = { phase, tripId, ...extra };
};

describe('registration', () => {
  it('serves every operator route with function-key auth', () => {
    expect(httpTriggerOf(OperatorFunction.status)).toEqual({
      route: 'breaker/status',
      methods: ['GET'],
      authLevel: 'function',
    });
    expect(httpTriggerOf(OperatorFunction.trip)).toEqual({
      route: 'breaker/trip',
      methods: ['POST'],
      authLevel: 'function',
    });
    expect(httpTriggerOf(OperatorFunction.reset)).toEqual({
      route: 'breaker/reset',
      methods: ['POST'],
      authLevel: 'function',
    });
    expect(httpTriggerOf(OperatorFunction.history)).toEqual({
      route: 'breaker/history',
      methods: ['GET'],
      authLevel: 'function',
    });
    expect(httpTriggerOf(OperatorFunction.dashboard)).toEqual({
      route: 'breaker/dashboard',
      methods: ['GET'],
      authLevel: 'function',
    });
  });
});

describe('a whole episode as the status API and dashboard see it', () => {
  let tripId: string;

  it('starts CLOSED with the thresholds and counts', async () => {
    await f.store.record([{ eventKey: 'p0-s1', kind: 'transient', message: 'timeout' }], f.clock.now());
    const s = await status();
    expect(s).toMatchObject({
      functionName: FN,
      state: 'CLOSED',
      tripId: null,
      phase: null,
      failuresInWindow: 1,
      threshold: 100,
      probationThreshold: 10,
      activeThreshold: 100,
      lastTrip: null,
      triggerDisabled: false,
      deadLetters: 7,
      store: { ok: true },
      problems: [],
    });
    const page = await dashboard();
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<span class="badge CLOSED" id="state">CLOSED<\/span>/);
    expect(page.body).toContain('No trips recorded.');
    expect(page.body).toContain('<meta http-equiv="refresh" content="30" />');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('a manual trip opens the circuit and starts the orchestration like the trigger does', async () => {
    const res = await call(OperatorFunction.trip, 'POST', 'trip', { reason: 'sink maintenance', by: 'Dana' });
    expect(res.status).toBe(202);
    const body = JSON.parse(res.body) as {
      tripId: string;
      instanceId: string;
      orchestrationStarted: boolean;
    };
    tripId = body.tripId;
    expect(body).toEqual({ tripId, instanceId: breakerInstanceId(tripId), orchestrationStarted: true });
    expect(f.durable.instances.get(breakerInstanceId(tripId))).toMatchObject({
      name: 'BreakerOrchestrator',
      input: { tripId, functionName: FN },
    });
    // What the orchestration does next: disable the trigger and wait.
    f.triggerSwitch.disabled.set(FN, true);
    setPhase(tripId, 'awaiting-approval');

    const s = await status();
    expect(s).toMatchObject({ state: 'OPEN', tripId, phase: 'awaiting-approval', triggerDisabled: true });
    expect(s.lastTrip).toMatchObject({
      tripId,
      cause: 'manual',
      reason: 'sink maintenance (by Dana)',
      approvedBy: null,
    });
    const page = await dashboard();
    expect(page.body).toMatch(/badge OPEN" id="state">OPEN</);
    expect(page.body).toContain('awaiting-approval');
    expect(page.body).toContain('sink maintenance (by Dana)');
    expect(page.body).toContain('(ongoing)');
  });

  it('a second manual trip while open is refused with 409', async () => {
    const res = await call(OperatorFunction.trip, 'POST', 'trip', { reason: 'again' });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'the circuit is already open', tripId });
  });

  it('reset while the orchestration waits is an approval of the current trip', async () => {
    f.clock.advance(5 * 60_000);
    const res = await call(OperatorFunction.reset, 'POST', 'reset', { by: 'Lee' });
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body)).toEqual({ action: 'approved', tripId });
    expect(f.durable.raised).toEqual([
      { instanceId: breakerInstanceId(tripId), name: 'Approval', data: { tripId, approvedBy: 'Lee' } },
    ]);
  });

  it('probation shows HALF_OPEN, the probation threshold, the approver and how long it waited', async () => {
    // What the orchestration does on approval: HALF_OPEN, reset the window, enable, probation.
    await f.store.transition('OPEN', 'HALF_OPEN', tripId, f.clock.now());
    await f.store.resetWindow();
    await f.store.updateTrip(tripId, { resumedAt: f.clock.now() });
    f.triggerSwitch.disabled.set(FN, false);
    setPhase(tripId, 'probation', { approvedBy: 'Lee' });

    const s = await status();
    expect(s).toMatchObject({
      state: 'HALF_OPEN',
      tripId,
      phase: 'probation',
      activeThreshold: 10,
      failuresInWindow: 0,
      triggerDisabled: false,
    });
    expect(s.lastTrip).toMatchObject({ approvedBy: 'Lee', waitedForApprovalMs: 5 * 60_000 });
    const page = await dashboard();
    expect(page.body).toMatch(/badge HALF_OPEN" id="state">HALF_OPEN</);
    expect(page.body).toMatch(/0 \/\s*10 \(probation\)/);
    expect(page.body).toMatch(/>Lee<\/td>\s*<td[^>]*>\s*5 min\s*<\/td>/);
  });

  it('the history lists the trip with its approval', async () => {
    const res = await call(OperatorFunction.history, 'GET', 'history?limit=5');
    expect(res.status).toBe(200);
    const { trips } = JSON.parse(res.body) as { trips: Record<string, unknown>[] };
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ tripId, cause: 'manual', approvedBy: 'Lee', closedAt: null });
  });

  it('after a quiet probation the circuit is CLOSED and reset says so', async () => {
    f.clock.advance(300_000);
    await f.store.transition('HALF_OPEN', 'CLOSED', tripId, f.clock.now());
    await f.store.updateTrip(tripId, { closedAt: f.clock.now() });
    setPhase(tripId, 'closed', { approvedBy: 'Lee' });
    expect(await status()).toMatchObject({ state: 'CLOSED', tripId, phase: 'closed', activeThreshold: 100 });
    const res = await call(OperatorFunction.reset, 'POST', 'reset', {});
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'the circuit is already closed' });
    expect((await dashboard()).body).toContain('10 min');
  });
});

describe('forced reset (break-glass)', () => {
  it('without force changes nothing when no orchestration waits; with force closes and enables', async () => {
    const tripped = await call(OperatorFunction.trip, 'POST', 'trip', { reason: 'drill' });
    const { tripId } = JSON.parse(tripped.body) as { tripId: string };
    f.durable.instances.delete(breakerInstanceId(tripId));
    f.triggerSwitch.disabled.set(FN, true);
    await f.store.record([{ eventKey: 'k', kind: 'transient', message: 'x' }], f.clock.now());

    const refused = await call(OperatorFunction.reset, 'POST', 'reset', { by: 'Lee' });
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body)).toMatchObject({ tripId, phase: null });
    expect((await f.store.getState()).state).toBe('OPEN');

    const forced = await call(OperatorFunction.reset, 'POST', 'reset', { by: 'Lee', force: true });
    expect(forced.status).toBe(200);
    expect(JSON.parse(forced.body)).toEqual({ action: 'forced-closed', tripId });
    expect(await f.store.getState()).toMatchObject({ state: 'CLOSED', tripId });
    expect(f.triggerSwitch.disabled.get(FN)).toBe(false);
    const s = await status();
    expect(s).toMatchObject({ state: 'CLOSED', failuresInWindow: 0 });
    expect(s.lastTrip).toMatchObject({ approvedBy: 'Lee (forced reset)' });
  });
});

describe('validation: clear 400s', () => {
  const cases: [string, string, string, unknown, RegExp][] = [
    ['trip without reason', OperatorFunction.trip, 'trip', {}, /reason/],
    ['trip with empty reason', OperatorFunction.trip, 'trip', { reason: '   ' }, /must not be empty/],
    [
      'trip with unknown field',
      OperatorFunction.trip,
      'trip',
      { reason: 'x', force: true },
      /force|Unrecognized/i,
    ],
    ['trip with a non-JSON body', OperatorFunction.trip, 'trip', '{reason:', /not valid JSON/],
    [
      'trip with a control character',
      OperatorFunction.trip,
      'trip',
      { reason: 'a\nb' },
      /control characters/,
    ],
    ['reset with force as a string', OperatorFunction.reset, 'reset', { force: 'yes' }, /force/],
  ];
  for (const [name, fn, path, body, message] of cases) {
    it(name, async () => {
      const res = await call(fn, 'POST', path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatch(message);
    });
  }

  it('history with a bad limit', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc']) {
      const res = await call(OperatorFunction.history, 'GET', `history?${q}`);
      expect(res.status).toBe(400);
    }
  });
});
