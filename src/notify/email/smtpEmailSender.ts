import { createTransport } from 'nodemailer';

import { type EmailSender, requireRecipients, requireSender } from './emailSender';
import { EmailConfigError, EmailDeliveryError, type EmailError, EmailRejectedError } from './errors';

export interface SmtpEmailSenderOptions {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly sender: string;
  /**
   * Milliseconds to wait for a connection, the greeting and each socket read. Nodemailer's defaults
   * (minutes) would hold an activity far longer than its retry policy expects.
   */
  readonly timeoutMs?: number;
}

const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET']);

/** Sends through an SMTP server (a mail catcher locally, a relay in production). */
export function makeSmtpEmailSender(options: SmtpEmailSenderOptions): EmailSender {
  if (options.host.trim() === '') throw new EmailConfigError('SMTP_HOST is empty');
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65_535)
    throw new EmailConfigError(`SMTP_PORT ${options.port} is not a TCP port`);
  requireSender(options.sender);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const transport = createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 3,
  });
  const where = `${options.host}:${options.port}`;

  return {
    async send(message) {
      requireRecipients(message.to);
      let rejected: readonly unknown[];
      try {
        const info = await transport.sendMail({
          from: options.sender,
          to: [...message.to],
          subject: message.subject,
          text: message.text,
          html: message.html,
          // SMTP cannot deduplicate; the same Message-ID at least lets a mail client tell a repeat.
          ...(message.identity ? { messageId: `<${message.identity.messageId}@breakwater.notice>` } : {}),
        });
        rejected = info.rejected;
      } catch (error) {
        throw classifySmtpError(error, where);
      }
      if (rejected.length > 0)
        throw new EmailRejectedError(
          `SMTP server ${where} rejected ${rejected.length} of ${message.to.length} recipients`,
        );
    },
  };
}

function classifySmtpError(error: unknown, where: string): EmailError {
  const { code, responseCode, message } = smtpErrorFields(error);
  if (code !== undefined && NETWORK_CODES.has(code))
    return new EmailDeliveryError(`SMTP server ${where} is unreachable (${code}): ${message}`);
  if (code === 'EAUTH')
    return new EmailRejectedError(`SMTP server ${where} refused authentication: ${message}`);
  // 4xx replies are temporary by the SMTP standard; 5xx are final.
  if (responseCode !== undefined && responseCode < 500)
    return new EmailDeliveryError(`SMTP server ${where} deferred the message (${responseCode}): ${message}`);
  if (responseCode !== undefined)
    return new EmailRejectedError(`SMTP server ${where} refused the message (${responseCode}): ${message}`);
  return new EmailDeliveryError(`sending through SMTP server ${where} failed: ${message}`);
}

function smtpErrorFields(error: unknown): { code?: string; responseCode?: number; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (typeof error !== 'object' || error === null) return { message };
  const fields = error as { code?: unknown; responseCode?: unknown };
  return {
    message,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(typeof fields.responseCode === 'number' ? { responseCode: fields.responseCode } : {}),
  };
}
