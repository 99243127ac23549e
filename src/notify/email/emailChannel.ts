import type { EmailMessage } from '../messages/emailMessage';
import type { NoticeChannel, NoticeOutcome } from '../noticeChannel';
import type { EmailSender } from './emailSender';
import { EMAIL_CHANNEL } from './emailTraits';
import { EmailError } from './errors';
import { reviveStoredEmail, type StoredEmail } from './storedEmail';

/**
 * The email: awaited before the approval wait, since it carries the approval link. A provider's
 * refusal or bad settings come back as a value; transient failures are thrown (the activity retries).
 */
export function emailChannel<N, F>(deps: {
  readonly sender: EmailSender;
  readonly render: (notice: N, facts: F) => EmailMessage;
}): NoticeChannel<N, F, StoredEmail> {
  return {
    ...EMAIL_CHANNEL,
    render: deps.render,
    revive: reviveStoredEmail,
    async send(message, identity): Promise<NoticeOutcome> {
      try {
        await deps.sender.send({ ...message, identity });
        return { ok: true };
      } catch (error) {
        if (error instanceof EmailError && !error.retryable)
          return { ok: false, code: error.code, message: error.message };
        throw error;
      }
    },
  };
}
