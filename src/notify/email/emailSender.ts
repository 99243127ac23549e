import type { NoticeIdentity } from '../noticeLedger';
import { EmailConfigError } from './errors';

export interface EmailMessage {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /**
   * The same for every attempt of one notice: ACS gets it as its operation id and repeatability
   * headers (it answers a repeat within 5 minutes without sending again), SMTP as the Message-ID
   * (SMTP has no deduplication: a repeat is a second email with the same Message-ID).
   */
  readonly identity?: NoticeIdentity;
}

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
