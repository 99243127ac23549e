/**
 * The registered functions together: the Event Hubs trigger trips the (real, Table) breaker and starts
 * the orchestration through its durable client; the orchestration runs on the test host with the
 * runtime's own activities (local trigger control, log email); the operator API's reset raises the
 * approval; probation closes the breaker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import { bindingOfType, invokeRpc, registration } from '../../sim/host/fakeFunctionsCore';
import { httpTriggerOf, invokeHttp } from '../../sim/host/httpInvoke';
import { endpointPort, type FaultProxy, startFaultProxy, withEndpointPort } from '../../sim/net/faultProxy';
import { OperatorFunction } from '../../src/operator/registerOperator';
import { BreakerActivity } from '../../src/orchestration/activityNames';
import type { BreakerStatus } from '../../src/orchestration/breakerStatus';
import { BREAKER_ORCHESTRATOR, breakerInstanceId } from '../../src/orchestration/orchestrationIds';
import { applyEnv, testAppEnv } from '../support/appEnv';
import { jsonBody, reading, rpcEventBatch } from '../support/sensorEvents';

const FN = 'ProcessSensorEvents';
let server: DurableClientServer;
let proxy: FaultProxy;

beforeAll(async () => {
  const base = testAppEnv('orchfn', {
    BREAKER_THRESHOLD: '1',
    BREAKER_PROBATION_THRESHOLD: '1',
    BREAKER_PROBATION_SECONDS: '60',
    BREAKER_STATE_CACHE_MS: '0',
    TRIGGER_CONTROL: 'local',
    EMAIL_PROVIDER: 'log',
    APPROVAL_MAX_REMINDERS: '1',
    EVENT_MAX_ATTEMPTS: '1',
  });
  // The sink's Table traffic goes through a fault proxy so the test can take the downstream offline.
  proxy = await startFaultProxy(endpointPort(base.AzureWebJobsStorage!, 'TableEndpoint'));
  applyEnv({
    ...base,
    AzureWebJobsStorage: withEndpointPort(base.AzureWebJobsStorage!, 'TableEndpoint', proxy.port),
  });
  server = await startDurableClientServer();
  await import('../../src/functions/processSensorEvents');
  await import('../../src/functions/breakerOrchestration');
  await import('../../src/functions/breakerWatchdog');
  await import('../../src/functions/operatorApi');
});
afterAll(async () => {
  await server.close();
  await proxy.close();
});

describe('breaker functions: registration', () => {
  it('registers the orchestrator, its activities, the watchdog timer and durable client inputs', () => {
    expect(bindingOfType(BREAKER_ORCHESTRATOR, 'orchestrationTrigger')).toMatchObject({ direction: 'in' });
    for (const name of Object.values(BreakerActivity))
      expect(bindingOfType(name, 'activityTrigger')).toMatchObject({ direction: 'in' });
    expect(bindingOfType('BreakerWatchdog', 'timerTrigger')).toMatchObject({ schedule: '0 * * * * *' });
    expect(bindingOfType('BreakerWatchdog', 'durableClient')).toMatchObject({ direction: 'in' });
    expect(bindingOfType(FN, 'durableClient')).toMatchObject({ direction: 'in' });
    expect(bindingOfType(OperatorFunction.reset, 'durableClient')).toMatchObject({ direction: 'in' });
    expect(httpTriggerOf(OperatorFunction.reset)).toEqual({
      route: 'breaker/reset',
      methods: ['POST'],
      authLevel: 'function',
    });
  });

  it('guards a function whose name can be disabled on Linux (no "-")', () => {
    expect(registration(FN).metadata.name).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
  });
});

describe('breaker functions: a trip end to end', () => {
  it('trips, starts one orchestration, is approved through the operator reset, and closes after probation', async () => {
    // A point read names the partition in the path; the sink's query for a home's rows in its filter.
    proxy.setRule(({ url }) =>
      /PartitionKey(='| eq ')home-down'/.test(decodeURIComponent(url)) ? 503 : undefined,
    );
    const bodies = [0, 1].map((i) => jsonBody(reading({ homeId: 'home-down', sensorId: `door-${i}` })));
    const clientInput = server.rpcInput(bindingOfType(FN, 'durableClient').name);
    // The batch is held (CircuitOpenError) and the orchestration started on the way.
    await expect(invokeRpc(FN, { ...rpcEventBatch(bodies), inputData: [clientInput] })).rejects.toMatchObject(
      {
        code: 'CIRCUIT_OPEN',
      },
    );
    const ids = [...server.instances.keys()];
    expect(ids).toHaveLength(1);
    const instanceId = ids[0]!;
    const tripId = instanceId.replace(/^breaker-/, '');
    expect(instanceId).toBe(breakerInstanceId(tripId));
    const host = server.host(instanceId);
    expect(host.customStatus).toMatchObject({
      phase: 'awaiting-approval',
      tripId,
      disable: { kind: 'soft', disabled: true },
    });

    // The same batch re-run by the host's retry policy is held again and starts nothing new.
    await expect(invokeRpc(FN, { ...rpcEventBatch(bodies), inputData: [clientInput] })).rejects.toMatchObject(
      {
        code: 'CIRCUIT_OPEN',
      },
    );
    expect(server.instances.size).toBe(1);

    proxy.setRule(undefined);
    const approve = (body: unknown) =>
      invokeHttp(
        OperatorFunction.reset,
        {
          method: 'POST',
          url: 'http://localhost:7071/api/breaker/reset',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        },
        { durableClient: server.clientData },
      );
    expect((await approve({ by: 7 })).status).toBe(400);
    const accepted = await approve({ by: 'oncall@example.test' });
    expect(accepted.status).toBe(202);
    expect(JSON.parse(accepted.body)).toEqual({ action: 'approved', tripId });
    expect(host.customStatus).toMatchObject({ phase: 'probation', approvedBy: 'oncall@example.test' });
    // Past the wait, a second approval is refused with a clear reason.
    const again = await approve({ by: 'oncall@example.test' });
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body)).toMatchObject({ phase: 'probation', tripId });

    // The trigger processes again (HALF_OPEN lets batches through).
    await invokeRpc(FN, { ...rpcEventBatch(bodies), inputData: [clientInput] });

    host.advance(60_000);
    await host.run();
    expect(host.runtimeStatus).toBe('Completed');
    expect((host.output as BreakerStatus).phase).toBe('closed');
    const finished = await approve({ by: 'late@example.test' });
    expect(finished.status).toBe(409);
    expect(JSON.parse(finished.body)).toMatchObject({ error: 'the circuit is already closed' });
  });
});
