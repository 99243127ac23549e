/**
 * The watchdog as the function app registers it (src/functions/breakerWatchdog.ts over the real
 * composition root), against the ARM stand-in: a trigger left disabled while the breaker is CLOSED is
 * enabled again. Every other watchdog test builds its dependencies by hand; this one fails if the
 * composition stops wiring the repair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ArmServer, startArmServer, staticTokenCredential } from '../../sim/azure/armServer';
import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import { bindingOfType, invokeRpc } from '../../sim/host/fakeFunctionsCore';
import { makeSelfSignedCert } from '../../sim/net/selfSignedCert';
import { WATCHDOG_GRACE_MS } from '../../src/composition/orchestrationRuntime';
import { createRuntime, installRuntime, type Runtime } from '../../src/composition/runtime';
import { failures } from '../breaker/breakerStoreFixture';
import { testAppEnv } from '../support/appEnv';

const FN = 'ProcessSensorEvents';
const WATCHDOG = 'BreakerWatchdog';
const site = {
  subscriptionId: '00000000-0000-0000-0000-0000000000f1',
  resourceGroup: 'rg',
  siteName: 'func',
};
let arm: ArmServer;
let server: DurableClientServer;
let runtime: Runtime;
let now = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  const cert = makeSelfSignedCert();
  [arm, server] = await Promise.all([startArmServer(cert, site), startDurableClientServer()]);
  const env = testAppEnv('wdwire', {
    BREAKER_THRESHOLD: '1',
    BREAKER_PROBATION_THRESHOLD: '1',
    TRIGGER_CONTROL: 'arm',
    AZURE_SUBSCRIPTION_ID: site.subscriptionId,
    AZURE_RESOURCE_GROUP: site.resourceGroup,
    AZURE_FUNCTIONAPP_NAME: site.siteName,
    EMAIL_PROVIDER: 'log',
    APPROVERS: 'oncall@example.com',
  });
  runtime = createRuntime(env, {
    clock: { now: () => now },
    endpoints: { credential: staticTokenCredential, arm: { url: arm.url, ca: cert.cert } },
  });
  installRuntime(runtime);
  await import('../../src/functions/breakerWatchdog');
});
afterAll(() => Promise.all([arm.close(), server.close()]));

const tick = () =>
  invokeRpc(WATCHDOG, {
    trigger: { json: JSON.stringify({ Schedule: { AdjustForDST: true }, IsPastDue: false }) },
    inputData: [server.rpcInput(bindingOfType(WATCHDOG, 'durableClient').name)],
  });

describe('the registered watchdog (real composition)', () => {
  it('enables a trigger left disabled while the breaker is CLOSED, through ARM', async () => {
    const { tripId } = await runtime.breakerStore.record(failures(2), now);
    expect(tripId).toBeDefined();
    expect(await runtime.breakerStore.transition('OPEN', 'CLOSED', tripId, now)).toBe(true);
    // A late disable after a forced reset: CLOSED, no orchestration, the trigger still off.
    arm.setSettings({ FUNCTIONS_WORKER_RUNTIME: 'node', [`AzureWebJobs.${FN}.Disabled`]: 'true' });

    now += WATCHDOG_GRACE_MS + 1_000;
    const { logs } = await tick();
    expect(arm.settings()).toEqual({
      FUNCTIONS_WORKER_RUNTIME: 'node',
      [`AzureWebJobs.${FN}.Disabled`]: 'false',
    });
    expect(logs.map((l) => l.message)).toContainEqual(
      expect.stringMatching(/^watchdog: the breaker is CLOSED but the trigger was disabled \(AzureWebJobs\./),
    );

    // Repaired once: the next tick finds the trigger enabled and writes nothing.
    const puts = () => arm.requests.filter((r) => r.method === 'PUT').length;
    const before = puts();
    now += 60_000;
    await tick();
    expect(puts()).toBe(before);
  });
});
