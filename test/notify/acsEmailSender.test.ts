import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type AcsServer, startAcsServer } from '../../sim/azure/acsServer';
import { staticTokenCredential } from '../../sim/azure/armServer';
import { makeSelfSignedCert, type SelfSignedCert } from '../../sim/net/selfSignedCert';
import { makeAcsEmailClient, makeAcsEmailSender } from '../../src/notify/email/acsEmailSender';
import { EmailConfigError, EmailDeliveryError, EmailRejectedError } from '../../src/notify/email/errors';
import type { EmailMessage } from '../../src/notify/messages/emailMessage';

const message: EmailMessage = {
  to: ['oncall@example.com', 'lead@example.com'],
  subject: '[Breakwater] test',
  text: 'plain body',
  html: '<p>html body</p>',
};
const ACCESS_KEY = Buffer.from('not-a-real-access-key-0123456789').toString('base64');

let cert: SelfSignedCert;
let acs: AcsServer;
let sleeps: number[];
const sleep = (ms: number) => {
  sleeps.push(ms);
  return Promise.resolve();
};

const senderWith = (
  client = makeAcsEmailClient({
    connectionString: `endpoint=${acs.url}/;accesskey=${ACCESS_KEY}`,
    endpoint: undefined,
    credential: staticTokenCredential,
    tls: { ca: cert.cert },
  }),
  maxPolls = 5,
) => makeAcsEmailSender({ client, sender: 'DoNotReply@example.com', sleep, pollIntervalMs: 250, maxPolls });

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  cert = makeSelfSignedCert();
  acs = await startAcsServer(cert);
});
afterAll(() => acs.close());
beforeEach(() => {
  sleeps = [];
  acs.requests.length = 0;
  acs.sent.length = 0;
  acs.scriptPolls(['Succeeded']);
});

describe('ACS email sender (real EmailClient, local HTTPS endpoint)', () => {
  it('repeats a notice with the same repeatability id and first-sent time: ACS sends it once', async () => {
    const identity = {
      messageId: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e',
      firstAttemptAt: Date.now() - 60_000,
    };
    await senderWith().send({ ...message, identity });
    await senderWith().send({ ...message, identity }); // a re-run after the activity was killed
    expect(acs.sent).toHaveLength(1);
    const post = acs.requests.find((r) => r.method === 'POST');
    expect(post?.headers['repeatability-request-id']).toBe(identity.messageId);
    expect(post?.headers['repeatability-first-sent']).toBe(new Date(identity.firstAttemptAt).toUTCString());
    expect(post?.headers['operation-id']).toBe(identity.messageId);
  });

  it('is refused (412) when the first attempt is older than the 5 minutes ACS tracks', async () => {
    const identity = {
      messageId: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4f',
      firstAttemptAt: Date.now() - 6 * 60_000,
    };
    const error = await caught(senderWith().send({ ...message, identity }));
    expect(error.message).toMatch(/412/);
    expect(acs.sent).toHaveLength(0);
  });

  it('sends with a connection string (HMAC auth) and polls the operation until it succeeds', async () => {
    acs.scriptPolls(['Running', 'Running', 'Succeeded']);
    await senderWith().send(message);
    expect(acs.sent).toEqual([
      {
        senderAddress: 'DoNotReply@example.com',
        content: { subject: message.subject, plainText: message.text, html: message.html },
        recipients: { to: [{ address: 'oncall@example.com' }, { address: 'lead@example.com' }] },
      },
    ]);
    expect(acs.requests[0]?.headers.authorization).toMatch(/^HMAC-SHA256 /);
    expect(acs.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /emails:send',
      'GET /emails/operations/' + (acs.requests[1]?.path.split('/').pop() ?? ''),
      expect.stringMatching(/^GET \/emails\/operations\//),
      expect.stringMatching(/^GET \/emails\/operations\//),
    ]);
    // beginSend already polled once; two more after a sleep each.
    expect(sleeps).toEqual([250, 250]);
  });

  it('sends with an endpoint and a token credential (bearer auth)', async () => {
    const client = makeAcsEmailClient({
      endpoint: acs.url,
      connectionString: undefined,
      credential: staticTokenCredential,
      tls: { ca: cert.cert },
    });
    await senderWith(client).send(message);
    expect(acs.requests[0]?.headers.authorization).toBe('Bearer test-token');
  });

  it('bounds the wait: an operation that never finishes is a retryable error after maxPolls', async () => {
    acs.scriptPolls(['Running']);
    const error = await caught(senderWith(undefined, 3).send(message));
    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error.message).toMatch(/did not finish within 3 status polls/);
    expect(sleeps).toHaveLength(3);
  });

  it('reports a failed operation as a rejection, not worth retrying', async () => {
    acs.scriptPolls(['Running', 'Running', 'Failed']);
    const error = await caught(senderWith().send(message));
    expect(error).toBeInstanceOf(EmailRejectedError);
    expect(error).toMatchObject({ code: 'EMAIL_REJECTED', retryable: false });
    expect(error.message).toMatch(/suppressed/);
    // Failing on the poll inside beginSend is recognised as well.
    acs.scriptPolls(['Failed']);
    expect(await caught(senderWith().send(message))).toBeInstanceOf(EmailRejectedError);
  });

  it('treats 503 on send as transient and 401 as a rejection', async () => {
    acs.failNextSend(503);
    expect(await caught(senderWith().send(message))).toBeInstanceOf(EmailDeliveryError);
    acs.failNextSend(401);
    const denied = await caught(senderWith().send(message));
    expect(denied).toBeInstanceOf(EmailRejectedError);
    expect(denied.message).toMatch(/role/);
  });

  it('fails with a clear config error when neither endpoint nor connection string is set', () => {
    let error: unknown;
    try {
      makeAcsEmailClient({
        endpoint: undefined,
        connectionString: undefined,
        credential: staticTokenCredential,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmailConfigError);
    expect(String(error)).toMatch(/ACS_ENDPOINT.*ACS_CONNECTION_STRING/);
  });

  it('fails with a clear config error when the sender address is missing', () => {
    expect(() =>
      makeAcsEmailSender({
        client: makeAcsEmailClient({
          endpoint: acs.url,
          connectionString: undefined,
          credential: staticTokenCredential,
        }),
        sender: ' ',
        sleep,
      }),
    ).toThrow(/EMAIL_SENDER/);
  });
});
