import * as df from 'durable-functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ArmServer, startArmServer, staticTokenCredential } from '../../sim/azure/armServer';
import { type DurableClientServer, startDurableClientServer } from '../../sim/durable/durableClientServer';
import { makeSelfSignedCert } from '../../sim/net/selfSignedCert';
import { makeArmTriggerSwitch } from '../../src/control/armTriggerSwitch';
import { runWatchdog, type WatchdogDeps } from '../../src/watchdog/runWatchdog';
import { FN, freshStore, MINUTE, newEpisode, registerBreaker, T0 } from '../orchestration/breakerFixture';
import { recordingEmailSender } from '../support/recordingEmailSender';
import { recordingLogger } from './watchdogFixture';

// The host disables a function when AzureWebJobs.<fn>.Disabled OR AzureWebJobs_<fn>_Disabled is
// "true" or "1" in any case: a form the breaker never writes still stops the trigger.
const site = {
  subscriptionId: '00000000-0000-0000-0000-0000000000f0',
  resourceGroup: 'rg',
  siteName: 'func',
};
let arm: ArmServer;
let server: DurableClientServer;
let cert: ReturnType<typeof makeSelfSignedCert>;
beforeAll(async () => {
  registerBreaker();
  cert = makeSelfSignedCert();
  [arm, server] = await Promise.all([startArmServer(cert, site), startDurableClientServer()]);
});
afterAll(() => Promise.all([arm.close(), server.close()]));

async function closedWith(settings: Record<string, string>, tripped = true) {
  const e = tripped ? await newEpisode() : { store: freshStore(), tripId: undefined };
  if (e.tripId !== undefined)
    expect(await e.store.transition('OPEN', 'CLOSED', e.tripId, T0 + 1_000)).toBe(true);
  arm.setSettings({ FUNCTIONS_WORKER_RUNTIME: 'node', ...settings });
  const triggerSwitch = makeArmTriggerSwitch({
    target: site,
    credential: staticTokenCredential,
    logger: recordingLogger(),
    endpoint: arm.url,
    tls: { ca: cert.cert },
  });
  const email = recordingEmailSender();
  const deps: WatchdogDeps = {
    store: e.store,
    functionName: FN,
    graceMs: 2 * MINUTE,
    clock: { now: () => T0 + 10 * MINUTE },
    repair: { triggerSwitch, email, approvers: ['oncall@example.test'] },
  };
  return { e, email, deps };
}

describe('watchdog: every form of the switch while CLOSED', () => {
  it.each([
    [`AzureWebJobs_${FN}_Disabled`, '1'],
    [`AzureWebJobs_${FN}_Disabled`, 'TRUE'],
    [`AzureWebJobs.${FN}.Disabled`, '1'],
    [`azurewebjobs.${FN.toLowerCase()}.disabled`, 'True'],
  ])(
    'repairs a stray %s=%s, names it in the log and the email, and leaves no form set',
    async (name, value) => {
      const { e, email, deps } = await closedWith({ [name]: value });
      const logger = recordingLogger();
      expect(await runWatchdog(deps, df.getClient(server.context()), logger)).toEqual({
        action: 'repaired',
        tripId: e.tripId,
      });
      expect(logger.warnings).toEqual([expect.stringContaining(`${name}=${value}`)]);
      expect(email.sent).toHaveLength(1);
      expect(email.sent[0]!.text).toContain(name);
      // Only the breaker's own form is left, set to "false"; the stray one is gone.
      expect(arm.settings()).toEqual({
        FUNCTIONS_WORKER_RUNTIME: 'node',
        [`AzureWebJobs.${FN}.Disabled`]: 'false',
      });
    },
  );

  it('leaves a form that does not disable alone (the host reads only "true" or "1")', async () => {
    const { deps } = await closedWith({ [`AzureWebJobs_${FN}_Disabled`]: 'yes' });
    expect(await runWatchdog(deps, df.getClient(server.context()), recordingLogger())).toEqual({
      action: 'none',
      reason: 'closed',
    });
  });

  it('repairs a stray form while the store knows no trip (fresh, or Redis restarted empty)', async () => {
    const stray = `AzureWebJobs_${FN}_Disabled`;
    const { email, deps } = await closedWith({ [stray]: '1' }, false);
    const logger = recordingLogger();
    expect(await runWatchdog(deps, df.getClient(server.context()), logger)).toEqual({
      action: 'repaired',
      tripId: undefined,
    });
    expect(logger.warnings).toEqual([expect.stringContaining(`${stray}=1`)]);
    expect(email.sent[0]!.text).toContain('the breaker store knows no trip');
    expect(arm.settings()).toEqual({
      FUNCTIONS_WORKER_RUNTIME: 'node',
      [`AzureWebJobs.${FN}.Disabled`]: 'false',
    });
  });

  it("leaves the breaker's own disable alone while the store knows no trip: a forgotten trip's link lifts it (G5)", async () => {
    const own = { [`AzureWebJobs.${FN}.Disabled`]: 'true', [`AzureWebJobs_${FN}_Disabled`]: '1' };
    const { email, deps } = await closedWith(own, false);
    expect(await runWatchdog(deps, df.getClient(server.context()), recordingLogger())).toEqual({
      action: 'none',
      reason: 'closed',
    });
    expect(email.sent).toEqual([]);
    expect(arm.settings()).toEqual({ FUNCTIONS_WORKER_RUNTIME: 'node', ...own });
  });
});
