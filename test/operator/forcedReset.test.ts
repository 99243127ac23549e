import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { FN, type OperatorFixture, operatorFixture } from './operatorFixture';

let f: OperatorFixture;
beforeAll(async () => {
  f = await operatorFixture();
});
afterAll(() => f.close());

const call = (fn: string, path: string, body: unknown) =>
  invokeHttp(
    fn,
    {
      method: 'POST',
      url: `https://breakwater.example/api/breaker/${path}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    { durableClient: f.durable.clientData },
  );

describe('forced reset', () => {
  it('ends the running orchestration of the trip, so no pending disable can strand the trigger', async () => {
    const tripped = await call(OperatorFunction.trip, 'trip', { reason: 'drill' });
    const { tripId } = JSON.parse(tripped.body) as { tripId: string };
    const instance = f.durable.instances.get(breakerInstanceId(tripId));
    if (!instance) throw new Error('the trip started no orchestration');
    // Still retrying the ARM disable: not waiting for approval, so reset needs force.
    instance.customStatus = { phase: 'disabling', tripId };

    const forced = await call(OperatorFunction.reset, 'reset', { by: 'Lee', force: true });
    expect(forced.status).toBe(200);
    expect(JSON.parse(forced.body)).toMatchObject({ action: 'forced-closed', tripId });
    expect(instance.runtimeStatus).toBe('Terminated');
    expect(instance.terminatedBecause).toMatch(/forced reset/);
    expect(await f.store.getState()).toMatchObject({ state: 'CLOSED', tripId });
    expect(f.triggerSwitch.disabled.get(FN)).toBe(false);
  });
});
