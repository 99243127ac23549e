import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import type { BreakerNotice } from '../notify/breakerNotice';
import type { NoticeChannel, NoticeOutcome } from '../notify/noticeChannel';
import { type NoticeEntry, noticeKey, type NoticeLedger, noticeMessageId } from '../notify/noticeLedger';

/**
 * Sends a notice at most once per trip, kind and channel as far as the ledger can tell: an activity
 * killed after sending (the restart a settings write causes lands seconds later) finds it sent when
 * run again. A kill between the send and the record repeats it, with the message the first attempt
 * rendered and the same identity, so the provider sees a true repeat (ACS answers it without sending
 * again, and refuses one whose body differs; SMTP cannot tell). The ledger never holds a notice back:
 * when it cannot be read or written the notice goes out anyway, since a lost notice is worse than two.
 */
export async function sendNoticeOnce<F, M>(
  deps: { readonly clock: Clock; readonly notices?: NoticeLedger },
  notice: BreakerNotice,
  channel: NoticeChannel<BreakerNotice, F, M>,
  facts: () => Promise<F>,
  logger: Logger,
): Promise<NoticeOutcome | 'already-sent'> {
  const key = noticeKey(notice, channel.name);
  const now = deps.clock.now();
  const ledger = deps.notices;
  // Rendered with the facts of this moment; only the first attempt's rendering is sent.
  const rendered = channel.render(notice, await facts());
  let entry: NoticeEntry | undefined;
  try {
    entry = ledger === undefined ? undefined : await ledger.begin(key, now, JSON.stringify(rendered));
  } catch (error) {
    logger.warn(`notice ledger unreadable for ${key}, sending anyway: ${ensureError(error).message}`);
  }
  if (entry?.sentAt !== undefined) {
    logger.log(`${key} was sent at ${new Date(entry.sentAt).toISOString()}: not sending it again`);
    return 'already-sent';
  }
  const firstAttemptAt = entry?.firstAttemptAt ?? now;
  const message = storedMessage(entry, (value) => channel.revive(value), key, logger) ?? rendered;
  const result = await channel.send(message, { messageId: noticeMessageId(key), firstAttemptAt });
  // A refusal returned as a value is not sent: a re-run may try again.
  if (ledger !== undefined && result.ok) {
    await ledger.markSent(key, entry ?? { firstAttemptAt }, deps.clock.now()).catch((error: unknown) => {
      logger.warn(`could not record ${key} as sent: ${ensureError(error).message}`);
    });
  }
  return result;
}

function storedMessage<M>(
  entry: NoticeEntry | undefined,
  revive: (value: unknown) => M | undefined,
  key: string,
  logger: Logger,
): M | undefined {
  if (entry?.message === undefined) return undefined;
  let message: M | undefined;
  try {
    message = revive(JSON.parse(entry.message));
  } catch {
    message = undefined;
  }
  if (message === undefined)
    logger.warn(`the stored message of ${key} is unreadable: sending it as rendered now`);
  return message;
}
