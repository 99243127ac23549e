import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type SmtpSink, startSmtpSink } from '../../sim/azure/smtpSink';
import { freePort } from '../../sim/services/freePort';
import { refuseToken } from '../../src/approval/approvalRefusal';
import { approvalLink, signApprovalToken, verifyApprovalToken } from '../../src/approval/approvalToken';
import { EmailConfigError, EmailDeliveryError, EmailRejectedError } from '../../src/notify/email/errors';
import { makeSmtpEmailSender } from '../../src/notify/email/smtpEmailSender';
import { tripNotice } from '../../src/notify/messages/tripNotice';
import { noticeInput, NOW, SIGNING_KEY, trip } from './fixtures';

const FN = 'ProcessSensorEvents';
let smtp: SmtpSink;

const sender = (port = smtp.port) =>
  makeSmtpEmailSender({
    host: '127.0.0.1',
    port,
    secure: false,
    sender: 'breakwater@example.com',
    timeoutMs: 2_000,
  });

function signedNotice() {
  const token = signApprovalToken(
    { functionName: FN, tripId: trip.tripId, expiresAt: NOW + 24 * 3_600_000 },
    [SIGNING_KEY],
    NOW,
  );
  return tripNotice(noticeInput(approvalLink('http://localhost:7071', token)));
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp.close());
beforeEach(() => {
  smtp.received.length = 0;
});

describe('SMTP email sender (real SMTP server, parsed with mailparser)', () => {
  it('delivers the trip notice whose approval link, from text and from HTML, verifies', async () => {
    await sender().send(signedNotice());
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.subject).toMatch(/^\[Breakwater\] ProcessSensorEvents stopped/);
    expect(mail.from?.text).toContain('breakwater@example.com');

    const fromText = /https?:\/\/\S+\/api\/approve\?token=\S+/.exec(mail.text ?? '')?.[0];
    const html = typeof mail.html === 'string' ? mail.html : '';
    const href = /<a href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    expect(fromText).toBeDefined();
    expect(href).toBe(fromText);

    for (const link of [fromText!, href!]) {
      const token = new URL(link).searchParams.get('token');
      const check = refuseToken(verifyApprovalToken(token, [SIGNING_KEY], NOW + 60_000), FN);
      expect(check).toMatchObject({ payload: { functionName: FN, tripId: trip.tripId } });
    }
  });

  it('arrives with interpolated values HTML-escaped and secrets masked', async () => {
    await sender().send(signedNotice());
    const mail = smtp.received[0]!;
    const html = typeof mail.html === 'string' ? mail.html : '';
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(mail.text).toContain('<script>alert("x")</script>'); // plain text needs no escaping
    for (const part of [html, mail.text ?? '']) {
      expect(part).not.toContain('c2VjcmV0LWtleQ==');
      expect(part).not.toContain(SIGNING_KEY);
    }
  });

  it('reports an unreachable server as a retryable error naming host and port', async () => {
    const port = await freePort();
    const error = await caught(sender(port).send(signedNotice()));
    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error).toMatchObject({ code: 'EMAIL_TRANSIENT', retryable: true });
    expect(error.message).toContain(`127.0.0.1:${port} is unreachable`);
  });

  it('treats a final (5xx) refusal as a rejection and a temporary (4xx) one as retryable', async () => {
    smtp.rejectNextRecipient(550);
    expect(await caught(sender().send(signedNotice()))).toBeInstanceOf(EmailRejectedError);
    smtp.rejectNextRecipient(451);
    expect(await caught(sender().send(signedNotice()))).toBeInstanceOf(EmailDeliveryError);
  });

  it('refuses bad settings at construction with a clear message', () => {
    const build = (o: Partial<Parameters<typeof makeSmtpEmailSender>[0]>) => () =>
      makeSmtpEmailSender({ host: 'localhost', port: 1025, secure: false, sender: 'a@b.test', ...o });
    for (const [o, pattern] of [
      [{ host: ' ' }, /SMTP_HOST/],
      [{ port: 70_000 }, /SMTP_PORT/],
      [{ sender: '' }, /EMAIL_SENDER/],
    ] as const) {
      let error: unknown;
      try {
        build(o)();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(EmailConfigError);
      expect(String(error)).toMatch(pattern);
    }
  });
});
