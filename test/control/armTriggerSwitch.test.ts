import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type ArmServer, startArmServer, staticTokenCredential } from '../../sim/azure/armServer';
import { makeSelfSignedCert, type SelfSignedCert } from '../../sim/net/selfSignedCert';
import { freePort } from '../../sim/services/freePort';
import { makeArmTriggerSwitch } from '../../src/control/armTriggerSwitch';
import {
  type TriggerSwitchError,
  TriggerSwitchPermissionError,
  TriggerSwitchRequestError,
  TriggerSwitchTransientError,
  TriggerSwitchVerificationError,
} from '../../src/control/errors';
import { isTriggerDisabled, type TriggerSwitch } from '../../src/control/triggerSwitch';
import { silentLogger } from '../../src/kernel/logger';

const site = {
  subscriptionId: '11111111-2222-3333-4444-555555555555',
  resourceGroup: 'rg-bw',
  siteName: 'func-bw',
};
const FN = 'ProcessSensorEvents';
const KEY = `AzureWebJobs.${FN}.Disabled`;
const OTHERS = {
  FUNCTIONS_WORKER_RUNTIME: 'node',
  EventHubConnection: 'Endpoint=sb://x/;SharedAccessKey=secret',
  A: '1',
};

let cert: SelfSignedCert;
let arm: ArmServer;
let sw: TriggerSwitch;

const switchFor = (endpoint: string) =>
  makeArmTriggerSwitch({
    target: site,
    credential: staticTokenCredential,
    logger: silentLogger,
    endpoint,
    // Per-client trust of the test CA (a documented pipeline option): no process-wide NODE_EXTRA_CA_CERTS.
    tls: { ca: cert.cert },
  });

async function caught(promise: Promise<unknown>): Promise<TriggerSwitchError> {
  try {
    await promise;
  } catch (error) {
    return error as TriggerSwitchError;
  }
  throw new Error('expected a rejection');
}

const methods = () => arm.requests.map((r) => r.method);

beforeAll(async () => {
  cert = makeSelfSignedCert();
  arm = await startArmServer(cert, site);
  sw = switchFor(arm.url);
});
afterAll(() => arm.close());
afterEach(() => {
  arm.afterUpdate(undefined);
  arm.requests.length = 0;
});

describe('ARM trigger switch (real @azure/arm-appservice client, local HTTPS ARM)', () => {
  it('disables by merging the setting into all the others, and verifies by reading back', async () => {
    arm.setSettings(OTHERS);
    await sw.setDisabled(FN, true);
    expect(arm.settings()).toEqual({ ...OTHERS, [KEY]: 'true' });
    expect(methods()).toEqual(['POST', 'PUT', 'POST']);
    const put = arm.requests[1];
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ properties: { ...OTHERS, [KEY]: 'true' } });
    expect(put?.query.get('api-version')).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(put?.headers.authorization).toBe('Bearer test-token');
    await expect(isTriggerDisabled(sw, FN)).resolves.toBe(true);
  });

  it('enables by writing "false" (kept visible), which status reads as enabled', async () => {
    arm.setSettings({ ...OTHERS, [KEY]: 'true' });
    await sw.setDisabled(FN, false);
    expect(arm.settings()).toEqual({ ...OTHERS, [KEY]: 'false' });
    await expect(isTriggerDisabled(sw, FN)).resolves.toBe(false);
  });

  it('enables by removing every other form of the switch in the same read-merge-write', async () => {
    const strays = {
      [`AzureWebJobs_${FN}_Disabled`]: '1',
      [`azurewebjobs.${FN.toLowerCase()}.disabled`]: 'false',
    };
    arm.setSettings({ ...OTHERS, ...strays });
    await expect(isTriggerDisabled(sw, FN)).resolves.toBe(true);
    await sw.setDisabled(FN, false);
    expect(methods()).toEqual(['POST', 'POST', 'PUT', 'POST']);
    expect(arm.settings()).toEqual({ ...OTHERS, [KEY]: 'false' });
    await expect(sw.readSwitch(FN)).resolves.toEqual({
      disabled: false,
      disabledBy: [],
      forms: [KEY],
    });
  });

  it('does not write a disable when another form already disables the trigger', async () => {
    arm.setSettings({ ...OTHERS, [`AzureWebJobs_${FN}_Disabled`]: 'TRUE' });
    await sw.setDisabled(FN, true);
    expect(methods()).toEqual(['POST']);
  });

  it('reads an absent setting as enabled', async () => {
    arm.setSettings(OTHERS);
    await expect(isTriggerDisabled(sw, FN)).resolves.toBe(false);
  });

  it('does not write (and so does not restart the app) when the value is already set', async () => {
    arm.setSettings({ ...OTHERS, [KEY]: 'true' });
    await sw.setDisabled(FN, true);
    expect(methods()).toEqual(['POST']);
  });

  it('detects by the read-back a writer that read before our write and wrote after it', async () => {
    arm.setSettings(OTHERS);
    // The other writer's stale merge drops our setting and changes another one.
    arm.afterUpdate((s) => {
      const { [KEY]: _dropped, ...rest } = s;
      return { ...rest, A: '2' };
    });
    const error = await caught(sw.setDisabled(FN, true));
    expect(error).toBeInstanceOf(TriggerSwitchVerificationError);
    expect(error).toMatchObject({
      code: 'TRIGGER_SWITCH_VERIFY_FAILED',
      retryable: true,
      differingSettings: ['A', KEY],
    });
    // Setting values can be secrets: only names appear in the message.
    expect(error.message).not.toContain('secret');

    arm.afterUpdate(undefined);
    await sw.setDisabled(FN, true); // what callActivityWithRetry does next: re-read, re-merge, write
    expect(arm.settings()).toEqual({ ...OTHERS, A: '2', [KEY]: 'true' });
  });

  it('detects a concurrent change to another setting even when ours survived', async () => {
    arm.setSettings(OTHERS);
    arm.afterUpdate((s) => ({ ...s, NEW_SETTING: 'x' }));
    const error = await caught(sw.setDisabled(FN, true));
    expect(error).toBeInstanceOf(TriggerSwitchVerificationError);
    expect(error).toMatchObject({ differingSettings: ['NEW_SETTING'] });
  });

  it.each([403, 401])(
    'turns %i into a permanent permission error naming the missing role, without retrying',
    async (status) => {
      arm.setSettings(OTHERS);
      arm.failNext('list', status);
      const error = await caught(sw.setDisabled(FN, true));
      expect(error).toBeInstanceOf(TriggerSwitchPermissionError);
      expect(error).toMatchObject({
        code: 'TRIGGER_SWITCH_PERMISSION',
        retryable: false,
        statusCode: status,
      });
      expect(error.message).toContain('Website Contributor');
      expect(error.message).toContain(`/sites/${site.siteName}`);
      expect(methods()).toEqual(['POST']);
    },
  );

  it('reports a permission error on the write as well', async () => {
    arm.setSettings(OTHERS);
    arm.failNext('update', 403);
    const error = await caught(sw.setDisabled(FN, true));
    expect(error).toBeInstanceOf(TriggerSwitchPermissionError);
    expect(arm.settings()).toEqual(OTHERS);
  });

  it.each([500, 503, 429])(
    'turns %i into a transient error, left to the orchestration to retry',
    async (status) => {
      arm.setSettings(OTHERS);
      arm.failNext('update', status);
      const error = await caught(sw.setDisabled(FN, true));
      expect(error).toBeInstanceOf(TriggerSwitchTransientError);
      expect(error).toMatchObject({ code: 'TRIGGER_SWITCH_TRANSIENT', retryable: true, statusCode: status });
      // One retry layer: the SDK did not retry on its own.
      expect(methods()).toEqual(['POST', 'PUT']);
    },
  );

  it('turns a network failure into a transient error', async () => {
    const closed = switchFor(`https://127.0.0.1:${await freePort()}`);
    const error = await caught(isTriggerDisabled(closed, FN));
    expect(error).toBeInstanceOf(TriggerSwitchTransientError);
    expect(error).toMatchObject({ statusCode: undefined });
  });

  it('really verifies TLS: without the test CA the self-signed certificate is refused', async () => {
    const untrusted = makeArmTriggerSwitch({
      target: site,
      credential: staticTokenCredential,
      logger: silentLogger,
      endpoint: arm.url,
    });
    const error = await caught(isTriggerDisabled(untrusted, FN));
    expect(error.message).toMatch(/certificate/i);
    expect(arm.requests).toHaveLength(0);
  });

  it('turns 404 (wrong app name) into a permanent request error', async () => {
    arm.failNext('list', 404);
    const error = await caught(isTriggerDisabled(sw, FN));
    expect(error).toBeInstanceOf(TriggerSwitchRequestError);
    expect(error).toMatchObject({ code: 'TRIGGER_SWITCH_FAILED', retryable: false });
    expect(error.message).toContain('AZURE_FUNCTIONAPP_NAME');
  });
});
