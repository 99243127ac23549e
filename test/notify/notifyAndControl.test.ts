import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ArmServer, startArmServer, staticTokenCredential } from '../../sim/azure/armServer';
import { type SmtpSink, startSmtpSink } from '../../sim/azure/smtpSink';
import { makeSelfSignedCert, type SelfSignedCert } from '../../sim/net/selfSignedCert';
import { refuseToken } from '../../src/approval/approvalRefusal';
import { verifyApprovalToken } from '../../src/approval/approvalToken';
import { issueApprovalLink } from '../../src/approval/issueApprovalLink';
import { makeNotifyAndControl } from '../../src/composition/notifyAndControl';
import { loadConfig } from '../../src/config/loadConfig';
import { EmailConfigError } from '../../src/notify/email/errors';
import { testAppEnv } from '../support/appEnv';

const site = {
  subscriptionId: '11111111-2222-3333-4444-555555555555',
  resourceGroup: 'rg-bw',
  siteName: 'func-bw',
};

function recordingLogger() {
  const lines: string[] = [];
  const push = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  return { lines, logger: { log: push, warn: push, error: push } };
}

let cert: SelfSignedCert;
let arm: ArmServer;
let smtp: SmtpSink;

beforeAll(async () => {
  cert = makeSelfSignedCert();
  arm = await startArmServer(cert, site);
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await Promise.all([arm.close(), smtp.close()]);
});

describe('composition of the trigger switch and email sender from AppConfig', () => {
  it('local mode with the log provider never creates a credential', async () => {
    const { lines, logger } = recordingLogger();
    const config = loadConfig(testAppEnv('nc', { TRIGGER_CONTROL: 'local', EMAIL_PROVIDER: 'log' }));
    const built = makeNotifyAndControl(config, {
      logger,
      getCredential: () => {
        throw new Error('no credential expected');
      },
    });
    await built.triggerSwitch.setDisabled(config.functionName, true);
    await built.emailSender.send({
      to: ['a@b.test'],
      subject: 'subj',
      text: 'body with link',
      html: '<p>x</p>',
    });
    expect(lines.join('\n')).toMatch(/soft OPEN state is holding the stream/);
    expect(lines.join('\n')).toMatch(/EMAIL_PROVIDER=log.*subj[\s\S]*body with link/);
  });

  it('arm mode and the smtp provider reach the configured endpoints, asking for the credential only when a token is needed', async () => {
    let created = 0;
    const config = loadConfig(
      testAppEnv('nc', {
        TRIGGER_CONTROL: 'arm',
        AZURE_SUBSCRIPTION_ID: site.subscriptionId,
        AZURE_RESOURCE_GROUP: site.resourceGroup,
        AZURE_FUNCTIONAPP_NAME: site.siteName,
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        APPROVERS: 'oncall@example.com',
      }),
    );
    const built = makeNotifyAndControl(config, {
      logger: recordingLogger().logger,
      getCredential: () => {
        created++;
        return staticTokenCredential;
      },
      endpoints: { arm: { url: arm.url, ca: cert.cert } },
    });
    expect(created).toBe(0);
    arm.setSettings({ KEEP: '1' });
    await built.triggerSwitch.setDisabled(config.functionName, true);
    expect(arm.settings()).toEqual({ KEEP: '1', [`AzureWebJobs.${config.functionName}.Disabled`]: 'true' });
    expect(created).toBeGreaterThan(0);

    const link = issueApprovalLink(
      config.approval,
      { functionName: config.functionName, tripId: 'trip-1' },
      1_000,
    );
    await built.emailSender.send({
      to: config.email.approvers,
      subject: 's',
      text: link.url,
      html: '<p>h</p>',
    });
    expect(smtp.received.at(-1)?.text).toContain('http://localhost:7071/api/approve?token=');
    const token = new URL(link.url).searchParams.get('token');
    const verification = verifyApprovalToken(token, config.approval.signingKeys, 2_000);
    expect(refuseToken(verification, config.functionName)).toMatchObject({ payload: { tripId: 'trip-1' } });
    expect(link.expiresAt).toBe(1_000 + config.approval.linkTtlHours * 3_600_000);
  });

  it('rejects an unusable email configuration with a typed error', () => {
    const config = loadConfig(
      testAppEnv('nc', { EMAIL_PROVIDER: 'acs', ACS_ENDPOINT: 'https://acs.example.test' }),
    );
    // The config loader guarantees an endpoint or a connection string; the sender address can still be blank.
    const blankSender = { ...config, email: { ...config.email, sender: ' ' } };
    let error: unknown;
    try {
      makeNotifyAndControl(blankSender, { getCredential: () => staticTokenCredential });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmailConfigError);
    expect(String(error)).toMatch(/EMAIL_SENDER/);

    const noAcs = {
      ...config,
      email: {
        ...config.email,
        transport: { provider: 'acs', endpoint: undefined, connectionString: undefined } as const,
      },
    };
    expect(() => makeNotifyAndControl(noAcs, { getCredential: () => staticTokenCredential })).toThrow(
      /ACS_ENDPOINT .*ACS_CONNECTION_STRING/,
    );
  });
});
