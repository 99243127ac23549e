import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface SmtpSink {
  readonly port: number;
  readonly received: ParsedMail[];
  /** Rejects the next RCPT TO with this SMTP reply code (e.g. 550 final, 451 temporary). */
  rejectNextRecipient(code: number): void;
  close(): Promise<void>;
}

/** A real SMTP peer (smtp-server) that parses every message it accepts with mailparser. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ParsedMail[] = [];
  let rejectCode: number | undefined;
  const server = new SMTPServer({
    // Like a local mail catcher: no TLS upgrade, no authentication.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address: SMTPServerAddress, _session, callback) {
      if (rejectCode === undefined) {
        callback();
        return;
      }
      const error = Object.assign(new Error('recipient refused by test server'), {
        responseCode: rejectCode,
      });
      rejectCode = undefined;
      callback(error);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch((error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        });
    },
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    rejectNextRecipient: (code) => {
      rejectCode = code;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
