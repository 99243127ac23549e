import type { RetryPolicy } from 'cockatiel';

import { decodeReading } from '../hub/decodeReading';
import { isPoisonEventError } from '../hub/errors';
import type { ReceivedEvent } from '../hub/receivedEvent';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import type { ActivitySink } from '../sinks/activitySink';
import { attemptWithRetry } from '../sinks/eventRetry';
import { PROPERTIES_SUFFIX } from './blobQueueDeadLetterStore';
import type { DeadLetterArchive, PendingDeadLetter } from './deadLetterArchive';
import type { DeadLetterMessage } from './deadLetterMessage';

/** Earlier dead letters one redrive takes along; more than that and the message waits its turn. */
export const EARLIER_LIMIT = 50;

export interface EarlierDeps {
  readonly archive: DeadLetterArchive;
  readonly sink: ActivitySink;
  readonly policy: RetryPolicy;
  readonly deadlineMs: number;
}

export type EarlierResult =
  | { readonly status: 'done'; readonly redriven: number }
  /** More than EARLIER_LIMIT are pending: this message should wait and come back. */
  | { readonly status: 'more' }
  | { readonly status: 'failed'; readonly blobName: string; readonly error: Error };

/**
 * Redrives, oldest first, the dead letters of the message's partition that came before it and are still
 * pending (the queue hands messages over in any order, but a key's events must reach the sink
 * in sequence order, and every key lives in one partition). One that still fails stops the walk, so the
 * message itself is not written before it. Poison and future-timestamp letters are skipped: it can never be written, and its own
 * message parks it. An earlier letter's own message later finds its body gone ("already redriven").
 */
export async function redriveEarlier(
  deps: EarlierDeps,
  message: DeadLetterMessage,
  logger: Logger,
): Promise<EarlierResult> {
  const pending = await deps.archive.pendingBefore(message, EARLIER_LIMIT);
  let redriven = 0;
  for (const p of pending.slice(0, EARLIER_LIMIT)) {
    // Dated too far ahead of its event: never written (its own message parks it, see redriveHandler.ts).
    if (p.reason === 'future-timestamp') continue;
    const body = await deps.archive.readBody(p.blobName);
    if (body === undefined) continue; // redriven meanwhile by its own message
    let reading;
    try {
      reading = decodeReading(body);
    } catch {
      continue;
    }
    const result = await attemptWithRetry(deps.policy, deps.deadlineMs, (signal) =>
      deps.sink.write(reading, toEvent(p, body), signal),
    );
    if (!result.ok) {
      const error = ensureError(result.error);
      if (isPoisonEventError(error)) continue;
      return { status: 'failed', blobName: p.blobName, error };
    }
    redriven++;
    await deps.archive
      .remove({ blobName: p.blobName, propertiesBlobName: `${p.blobName}${PROPERTIES_SUFFIX}` })
      .catch((error: unknown) => {
        logger.warn(`redriven, but the blob ${p.blobName} was not removed: ${ensureError(error).message}`);
      });
  }
  if (pending.length > EARLIER_LIMIT) return { status: 'more' };
  if (redriven > 0)
    logger.log(`redrove ${redriven} earlier dead letter(s) of partition ${message.partitionId ?? '?'} first`);
  return { status: 'done', redriven };
}

/** The sink orders by the reading, partition and sequence number; the rest is not needed to write. */
function toEvent(p: PendingDeadLetter, body: Buffer): ReceivedEvent {
  return {
    index: 0,
    body,
    partitionId: p.partitionId,
    sequenceNumber: p.sequenceNumber,
    offset: undefined,
    enqueuedTimeUtc: undefined,
    properties: {},
    systemProperties: {},
  };
}
