import { type QueueClient, RestError } from '@azure/storage-queue';

/**
 * How long a count may take. The SDK's own retries against a storage account that does not answer
 * last minutes; the status page, the dashboard and the trip email would wait with them.
 */
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * Dead letters waiting, from the queue's approximate message count (one message per dead letter; a
 * deferred redrive counts once, as it is one message). Never throws and never takes longer than
 * `timeoutMs`: a count is informative only, and an unreadable one is `undefined` ("unknown").
 */
export function queueDeadLetterCount(
  queue: QueueClient,
  options: { readonly timeoutMs?: number } = {},
): () => Promise<number | undefined> {
  return async () => {
    try {
      const abortSignal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      return (await queue.getProperties({ abortSignal })).approximateMessagesCount;
    } catch (error) {
      // The store creates the queue with its first dead letter: no queue yet means none were written.
      return isQueueNotFound(error) ? 0 : undefined;
    }
  };
}

const isQueueNotFound = (error: unknown) =>
  error instanceof RestError && error.statusCode === 404 && error.code === 'QueueNotFound';
