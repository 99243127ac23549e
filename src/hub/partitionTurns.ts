import type { EventHubConsumerClient, ReceivedEventData, SubscribeOptions } from '@azure/event-hubs';

import { ensureError } from '../kernel/ensureError';

/** What a reader makes of one receive: done with a value, or more wanted. */
export type Take<T> = { readonly done: true; readonly value: T } | { readonly done: false };

/** Per client, per partition: the end of the last read queued on it (settled, never rejected). */
const turns = new WeakMap<EventHubConsumerClient, Map<string, Promise<void>>>();

/**
 * Reads one partition through a short-lived subscription, in turn with every other read of the same
 * partition on the same client. The SDK allows one subscriber per partition on a client until that
 * subscription's `close()` has finished ("Partition already has a subscriber."), and the page, the status
 * API, the emails and the retention guard read at overlapping moments; so a read waits for the one before
 * it, closed, rather than failing. The subscription is closed before the read settles. An abort ends the
 * read (the signal's reason); a read queued behind another starts only if its signal is still live.
 */
export function readInTurn<T>(
  client: EventHubConsumerClient,
  partitionId: string,
  options: SubscribeOptions,
  take: (events: ReceivedEventData[]) => Take<T>,
  abortSignal: AbortSignal,
): Promise<T> {
  let byPartition = turns.get(client);
  if (byPartition === undefined) {
    byPartition = new Map<string, Promise<void>>();
    turns.set(client, byPartition);
  }
  const queue = byPartition;
  const previous = queue.get(partitionId) ?? Promise.resolve();
  const read = previous.then(() => {
    abortSignal.throwIfAborted();
    return subscribeOnce();
  });
  const settled = read.then(
    () => undefined,
    () => undefined,
  );
  queue.set(partitionId, settled);
  void settled.then(() => {
    if (queue.get(partitionId) === settled) queue.delete(partitionId);
  });
  return read;

  function subscribeOnce(): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        abortSignal.removeEventListener('abort', onAbort);
        // Settle only once the subscription is closed, so that the next read in turn can subscribe.
        void subscription
          .close()
          .catch(() => undefined)
          .then(settle);
      };
      const onAbort = () => {
        finish(() => {
          reject(ensureError(abortSignal.reason));
        });
      };
      const subscription = client.subscribe(
        partitionId,
        {
          processEvents: (events) => {
            const taken = take(events);
            if (taken.done)
              finish(() => {
                resolve(taken.value);
              });
            return Promise.resolve();
          },
          processError: (error) => {
            finish(() => {
              reject(ensureError(error));
            });
            return Promise.resolve();
          },
        },
        options,
      );
      abortSignal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
