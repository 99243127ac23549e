import type { QueueClient } from '@azure/storage-queue';

import type { DeadLetterMessage } from './deadLetterMessage';

/** Puts a dead letter back on its queue, invisible for a while (port). */
export type RedriveDeferral = (message: DeadLetterMessage, delaySeconds: number) => Promise<void>;

/**
 * Re-sends the message base64-encoded, as the dead-letter store writes it and the queue trigger reads
 * it, with the store's never-expire time-to-live.
 */
export function queueRedriveDeferral(queue: QueueClient): RedriveDeferral {
  return async (message, delaySeconds) => {
    await queue.sendMessage(Buffer.from(JSON.stringify(message)).toString('base64'), {
      visibilityTimeout: delaySeconds,
      // Never expires, like the dead letter it is: the queue's default would drop it after 7 days.
      messageTimeToLive: -1,
    });
  };
}
