import type { NoticeIdentity } from '../noticeLedger';

/** A breaker message as rendered for email: what an email sender (src/notify/email) sends. */
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
