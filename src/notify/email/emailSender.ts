import type { EmailMessage } from '../messages/emailMessage';
import { EmailConfigError } from './errors';

/** Sends operator emails (ACS in Azure, SMTP locally, or only a log line). */
export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

/** Checked when a sender is built, so a bad setting fails at start-up rather than at the first trip. */
export function requireSender(sender: string): void {
  if (sender.trim() === '')
    throw new EmailConfigError('EMAIL_SENDER is empty: set the From address of breaker emails');
}

export function requireRecipients(to: readonly string[]): void {
  if (to.length === 0) throw new EmailConfigError('the message has no recipients: set APPROVERS');
}
