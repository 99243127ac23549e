import type { QueueClient } from '@azure/storage-queue';

/**
 * Dead letters waiting, from the queue's approximate message count (one message per dead letter; a
 * deferred redrive counts once, as it is one message). Never throws: a count is informative only.
 */
export function queueDeadLetterCount(queue: QueueClient): () => Promise<number | undefined> {
  return async () => {
    try {
      return (await queue.getProperties()).approximateMessagesCount;
    } catch {
      return undefined;
    }
  };
}
