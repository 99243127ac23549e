import type { NoticeIdentity } from './noticeLedger';

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
