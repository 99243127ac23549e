import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FunctionsHttpServer, startFunctionsHttpServer } from '../../sim/host/functionsHttpServer';
import { registerOperator } from '../../src/operator/registerOperator';
import { durableOrchestrationControl } from '../../src/orchestration/durableOrchestrationControl';
import { type ApprovalFixture, approvalFixture } from '../approval/approvalFixture';
import { memoryTriggerSwitch, POLICY } from '../operator/operatorFixture';
import { freshMaintenanceRecord } from '../support/maintenanceRecords';
import { memoryBreakerStore } from '../support/memoryBreakerStore';

let f: ApprovalFixture;
let server: FunctionsHttpServer;
beforeAll(async () => {
  f = await approvalFixture();
  registerOperator({
    functionName: 'ProcessSensorEvents',
    clock: f.clock,
    policy: POLICY,
    store: memoryBreakerStore({ threshold: 100, probationThreshold: 10, windowMs: 30_000, bucketMs: 1_000 }),
    triggerSwitch: memoryTriggerSwitch(),
    maintenance: freshMaintenanceRecord('ProcessSensorEvents'),
    deadLetterCount: () => Promise.resolve(0),
    orchestration: durableOrchestrationControl('ProcessSensorEvents'),
  });
  server = await startFunctionsHttpServer({
    functionKey: 'k',
    extraInputs: () => ({ durableClient: f.durable.clientData }),
  });
});
afterAll(async () => {
  await server.close();
  await f.close();
});

describe('the local functions HTTP server (test support for browsers and curl)', () => {
  it('routes /api/<route> to the registered function and enforces methods and function keys', async () => {
    expect((await fetch(`${server.baseUrl}/api/nothing-here`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/api/approve`, { method: 'DELETE' })).status).toBe(405);
    expect((await fetch(`${server.baseUrl}/api/breaker/status`)).status).toBe(401);
    expect((await fetch(`${server.baseUrl}/api/breaker/status?code=wrong`)).status).toBe(401);
    const ok = await fetch(`${server.baseUrl}/api/breaker/status`, { headers: { 'x-functions-key': 'k' } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ state: 'CLOSED' });
    // Anonymous: no key needed; the page itself answers (400: no token).
    const page = await fetch(`${server.baseUrl}/api/approve`);
    expect(page.status).toBe(400);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(server.served.map((s) => s.status)).toEqual([404, 405, 401, 401, 200, 400]);
  });
});
