import type { QueueClient } from '@azure/storage-queue';

import type { DeadLetterMessage } from './deadLetterMessage';

/** Moves a message redrive will not act on to the poison queue, saying why (port). */
export type RedriveRefusal = (message: DeadLetterMessage, reason: string, at: number) => Promise<void>;

/**
 * Sends the message, with `refusedBecause` and `refusedAt` added, to the queue's poison queue (the one
 * the host uses after maxDequeueCount), never to expire. The fields it adds are ignored on re-queue.
 */
export function queueRedriveRefusal(poisonQueue: QueueClient): RedriveRefusal {
  let ready: Promise<unknown> | undefined;
  return async (message, reason, at) => {
    await (ready ??= poisonQueue.createIfNotExists().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
    const record = { ...message, refusedBecause: reason, refusedAt: new Date(at).toISOString() };
    await poisonQueue.sendMessage(Buffer.from(JSON.stringify(record)).toString('base64'), {
      messageTimeToLive: -1,
    });
  };
}
