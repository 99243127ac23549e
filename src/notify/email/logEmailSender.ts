import type { Logger } from '../../kernel/logger';
import type { EmailSender } from './emailSender';

/**
 * EMAIL_PROVIDER=log: writes the text part to the log instead of sending, so a developer can copy the
 * approval link from `func start` output. The link is a credential until it expires: do not use this
 * provider where logs are shared widely.
 */
export function makeLogEmailSender(logger: Logger): EmailSender {
  return {
    send(message) {
      logger.log(
        `email (not sent, EMAIL_PROVIDER=log) to ${message.to.join(', ')}: ${message.subject}\n${message.text}`,
      );
      return Promise.resolve();
    },
  };
}
