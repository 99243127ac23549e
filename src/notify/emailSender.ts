export interface EmailMessage {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Sends operator emails (ACS in Azure, SMTP locally, or only a log line). */
export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}
