import type { EventHubConsumerClient, ReceivedEventData, SubscribeOptions } from '@azure/event-hubs';

import { ensureError } from '../kernel/ensureError';
import { untilAborted } from '../kernel/untilAborted';

/** What a reader makes of one receive: done with a value, or more wanted. */
export type Take<T> = { readonly done: true; readonly value: T } | { readonly done: false };

/** How long a read waits for its subscription to close before the next read in turn may start. */
const CLOSE_WAIT_MS = 5_000;

/** Per client, per partition: the end of the last read queued on it (settled, never rejected). */
const turns = new WeakMap<EventHubConsumerClient, Map<string, Promise<void>>>();

/**
 * Reads one partition through a short-lived subscription, in turn with every other read of the same
 * partition on the same client. The SDK allows one subscriber per partition on a client until that
 * subscription is closed ("Partition already has a subscriber."), and the page, the status API, the
 * emails and the retention guard read at overlapping moments; so a read waits for the one before it,
 * closed, rather than failing. An abort rejects at once with the signal's reason, queued or not; a read
 * whose signal aborted while queued never subscribes.
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
  // The caller's answer: the read, or the signal's reason at once (while queued or while closing).
  const settled = read.then(
    () => undefined,
    () => undefined,
  );
  queue.set(partitionId, settled);
  void settled.then(() => {
    if (queue.get(partitionId) === settled) queue.delete(partitionId);
  });
  return untilAborted(read, abortSignal);

  function subscribeOnce(): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        abortSignal.removeEventListener('abort', onAbort);
        // Settle once the subscription is closed, so that the next read in turn can subscribe; a close
        // that stalls (a link being rebuilt) frees the turn after CLOSE_WAIT_MS: the SDK releases its
        // own gate as soon as close() is called.
        void closedWithin(subscription, CLOSE_WAIT_MS).then(settle);
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

function closedWithin(subscription: { close(): Promise<void> }, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([subscription.close().catch(() => undefined), waited]).finally(() => {
    clearTimeout(timer);
  });
}
