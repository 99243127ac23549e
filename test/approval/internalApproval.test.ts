import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { invokeHttp } from '../../sim/host/httpInvoke';
import { breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { type RecordingDurableServer, startRecordingDurableServer } from '../support/recordingDurableServer';

// The keyed internal approve route takes the approver's name like the public page does: it goes into
// the audit record, the orchestration status and the emails.
const ROUTE_FN = 'BreakerApproveInternal';
const TRIP = 't1767225600000-0123456789ab';
let durable: RecordingDurableServer;

beforeAll(async () => {
  durable = await startRecordingDurableServer();
  // The entry file reads the app's settings (APPROVAL_REQUIRE_SIGNED_IN) like every other one.
  applyEnv(testAppEnv('intappr', { EMAIL_PROVIDER: 'log', TRIGGER_CONTROL: 'local' }));
  await import('../../src/functions/breakerApproveInternal');
});
afterAll(() => durable.close());

const approve = (body: unknown) =>
  invokeHttp(
    ROUTE_FN,
    {
      method: 'POST',
      url: 'http://localhost:7071/api/internal/breaker/approve',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    { durableClient: durable.clientData },
  );

describe('POST /api/internal/breaker/approve', () => {
  beforeAll(() => {
    durable.instances.set(breakerInstanceId(TRIP), {
      name: 'BreakerOrchestrator',
      input: { tripId: TRIP },
      runtimeStatus: 'Running',
      customStatus: { phase: 'awaiting-approval', tripId: TRIP },
    });
  });

  it('refuses an empty or a 50 KB approver name, and raises nothing', async () => {
    for (const approvedBy of ['x'.repeat(50_000), '   ', '\r\n\u0000', 42]) {
      const res = await approve({ tripId: TRIP, approvedBy });
      expect(res.status).toBe(400);
      expect(res.body).toMatch(/approvedBy/);
      expect(res.body.length).toBeLessThan(1_000);
    }
    expect(durable.raised).toEqual([]);
  });

  it('refuses a trip id that is not one', async () => {
    for (const tripId of ['../../admin', 't1\r\n', 'x'.repeat(5_000)]) {
      const res = await approve({ tripId, approvedBy: 'Lee' });
      expect(res.status).toBe(400);
      expect(res.body).toMatch(/tripId/);
    }
    expect(durable.raised).toEqual([]);
  });

  it('raises the approval with control characters turned to spaces and trimmed, as the public page does', async () => {
    const res = await approve({ tripId: TRIP, approvedBy: ' Lee\r\nBcc: attacker@example.net\u0000 ' });
    expect(res.status).toBe(202);
    expect(durable.raised).toEqual([
      {
        instanceId: breakerInstanceId(TRIP),
        name: 'Approval',
        data: { tripId: TRIP, approvedBy: 'Lee  Bcc: attacker@example.net' },
      },
    ]);
  });
});
