import type { EmailSender } from '../../src/notify/email/emailSender';
import type { EmailMessage } from '../../src/notify/messages/emailMessage';

/** A fake email sender (test only): keeps what was sent; `failNext` makes sends throw. */
export interface RecordingEmailSender extends EmailSender {
  readonly sent: EmailMessage[];
  failNext(count: number, error?: Error): void;
}

export function recordingEmailSender(): RecordingEmailSender {
  const sent: EmailMessage[] = [];
  let failures = 0;
  let failure = new Error('mail server unavailable');
  return {
    sent,
    failNext(count, error) {
      failures = count;
      if (error) failure = error;
    },
    send(message) {
      if (failures > 0) {
        failures--;
        return Promise.reject(failure);
      }
      sent.push(message);
      return Promise.resolve();
    },
  };
}
