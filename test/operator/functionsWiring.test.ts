import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bindingOfType } from '../../sim/host/fakeFunctionsCore';
import { httpTriggerOf, invokeHttp } from '../../sim/host/httpInvoke';
import { approvalLink } from '../../src/approval/approvalLink';
import { signApprovalToken } from '../../src/approval/approvalToken';
import { APPROVAL_FUNCTION } from '../../src/approval/registerApproval';
import { REDRIVE_FUNCTION } from '../../src/deadLetters/registerRedrive';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { type RecordingDurableServer, startRecordingDurableServer } from '../support/recordingDurableServer';

const env = testAppEnv('ow', { BREAKER_STORE: 'table', TRIGGER_CONTROL: 'local' });
let durable: RecordingDurableServer;

beforeAll(async () => {
  applyEnv(env);
  durable = await startRecordingDurableServer();
  await import('../../src/functions/approval');
  await import('../../src/functions/operatorApi');
  await import('../../src/functions/redriveDeadLetters');
});
afterAll(() => durable.close());

const extra = () => ({ durableClient: durable.clientData });
const status = async () =>
  JSON.parse(
    (
      await invokeHttp(
        OperatorFunction.status,
        { method: 'GET', url: 'http://localhost/api/breaker/status' },
        extra(),
      )
    ).body,
  ) as Record<string, unknown>;

describe('the function modules, wired by the composition root (Table store on Azurite)', () => {
  it('register the approval page, the operator API and the redrive trigger', () => {
    expect(httpTriggerOf(APPROVAL_FUNCTION)).toMatchObject({ route: 'approve', authLevel: 'anonymous' });
    for (const name of Object.values(OperatorFunction))
      expect(httpTriggerOf(name)).toMatchObject({ authLevel: 'function' });
    expect(bindingOfType(APPROVAL_FUNCTION, 'durableClient')).toBeDefined();
    expect(bindingOfType(REDRIVE_FUNCTION, 'queueTrigger')).toMatchObject({
      queueName: '%DEAD_LETTER_QUEUE%',
    });
  });

  it('register the fault switch behind the function key, answering 404 while FAULT_SWITCH_ENABLED is off', async () => {
    expect(httpTriggerOf(OperatorFunction.fault)).toEqual({
      route: 'breaker/fault',
      methods: ['GET', 'POST'],
      authLevel: 'function',
    });
    const res = await invokeHttp(
      OperatorFunction.fault,
      {
        method: 'POST',
        url: 'http://localhost/api/breaker/fault',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ down: true, minutes: 5 }),
      },
      extra(),
    );
    expect(res.status).toBe(404);
  });

  it('trip by hand, see it in status, approve it from the link', async () => {
    expect(await status()).toMatchObject({
      state: 'CLOSED',
      store: { ok: true, seenByProcessing: { ok: true } },
    });
    const tripped = await invokeHttp(
      OperatorFunction.trip,
      {
        method: 'POST',
        url: 'http://localhost/api/breaker/trip',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'wiring test' }),
      },
      extra(),
    );
    expect(tripped.status).toBe(202);
    const { tripId } = JSON.parse(tripped.body) as { tripId: string };
    expect(durable.instances.has(breakerInstanceId(tripId))).toBe(true);
    expect(await status()).toMatchObject({ state: 'OPEN', tripId, lastTrip: { tripId, cause: 'manual' } });

    durable.instances.get(breakerInstanceId(tripId))!.customStatus = { phase: 'awaiting-approval', tripId };
    const token = signApprovalToken(
      { functionName: 'ProcessSensorEvents', tripId, expiresAt: Date.now() + 3_600_000 },
      [env.APPROVAL_SIGNING_KEY!],
      Date.now(),
    );
    const url = approvalLink('http://localhost:7071', token);
    const page = await invokeHttp(APPROVAL_FUNCTION, { method: 'GET', url }, extra());
    expect(page.status).toBe(200);
    const approved = await invokeHttp(
      APPROVAL_FUNCTION,
      {
        method: 'POST',
        url: 'http://localhost:7071/api/approve',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, approver: 'Wiring Test' }).toString(),
      },
      extra(),
    );
    expect(approved.status).toBe(200);
    expect(durable.raised.map((e) => e.data)).toEqual([{ tripId, approvedBy: 'Wiring Test' }]);
    const again = await invokeHttp(APPROVAL_FUNCTION, { method: 'GET', url }, extra());
    expect(again.status).toBe(409);
    expect(again.body).toContain('Already approved');
  });
});
