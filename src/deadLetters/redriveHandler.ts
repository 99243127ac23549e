import type { InvocationContext, StorageQueueHandler } from '@azure/functions';

import type { BreakerStateName, BreakerStore } from '../breaker/breakerStore';
import { decodeEvent } from '../hub/decodeReading';
import { isPoisonEventError } from '../hub/errors';
import { defaultMaxFutureSkewMs } from '../hub/readingTime';
import type { ReceivedEvent } from '../hub/receivedEvent';
import { boundText } from '../kernel/boundText';
import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { ActivitySink } from '../sinks/activitySink';
import { attemptWithRetry, type EventRetryOptions, makeEventRetryPolicy } from '../sinks/eventRetry';
import { blobNameProblem } from './blobNameProblem';
import type { DeadLetterArchive } from './deadLetterArchive';
import type { DeadLetterMessage } from './deadLetterMessage';
import { parseDeadLetterMessage } from './deadLetterMessage';
import { RedriveFailedError } from './errors';
import type { RedriveDeferral } from './redriveDeferral';
import { redriveEarlier } from './redriveEarlier';
import type { RedriveRefusal } from './redriveRefusal';

export interface RedriveDeps {
  /** The guarded function: only its dead letters, under its blob prefix, are redriven. */
  readonly functionName: string;
  readonly store: Pick<BreakerStore, 'getState'>;
  readonly archive: DeadLetterArchive;
  readonly defer: RedriveDeferral;
  /** Where a message naming blobs that are not its own goes, untouched. */
  readonly refuse: RedriveRefusal;
  readonly sink: ActivitySink;
  readonly retry: EventRetryOptions;
  /** Time budget for the sink attempts of one dead letter. */
  readonly deadlineMs: number;
  /** How long a dead letter stays invisible when the circuit is not CLOSED. */
  readonly deferSeconds: number;
  readonly clock: Clock;
  /** READING_MAX_FUTURE_SKEW_SECONDS in ms, as in processing: a reading dated further ahead is parked. */
  readonly maxFutureSkewMs?: number;
}

export type RedriveOutcome = 'redriven' | 'already-redriven' | 'deferred' | 'parked' | 'refused';

/**
 * Re-processes one dead letter: body from the blob, decode, sink write under the per-event retry
 * policy, then removes the blob (the event is now processed, not dead-lettered: G1).
 *
 * While the circuit is not CLOSED (or its state is unknown), the message is deferred: re-sent invisible
 * for `deferSeconds` and this one completed. Throwing instead would burn the queue's dequeue count
 * (host.json: 5 tries, 30 s apart), so a trip waiting hours for approval would push every dead letter
 * into the poison queue. A sink that still fails while CLOSED throws: that is what the host's retries
 * and, after maxDequeueCount, the poison queue are for (the last stop; the blob stays either way).
 *
 * A dead letter that can never succeed (invalid body, a reading dated further ahead of its event than
 * the accepted clock skew, rejected by the sink as invalid) is parked, not retried forever:
 * its message is saved beside the body blob and the queue message completes. Nothing is lost and the
 * queue does not loop; an operator re-queues the parked record after a fix (see
 * docs/operations.md#dead-letter-redrive).
 * A queue message that is not a dead letter at all throws and ends in the poison queue. One whose blob
 * names are not the ones the store wrote for it (another letter's body, a `../` path) goes to the
 * poison queue at once with the reason, and no blob is read, written or deleted.
 *
 * Order: before its own event, a redrive writes the earlier pending dead letters of the same
 * partition, oldest first (`redriveEarlier`), so a key's dead letters reach the sink in sequence order
 * whatever order the queue delivers them in; the sink's newest-wins rule keeps a redriven event from
 * overwriting a newer state that normal processing wrote meanwhile.
 */
export function makeRedriveHandler(deps: RedriveDeps): StorageQueueHandler {
  const policy = makeEventRetryPolicy(deps.retry);
  const redrive = async (message: DeadLetterMessage, context: InvocationContext): Promise<RedriveOutcome> => {
    const problem = blobNameProblem(message, deps.functionName);
    if (problem !== undefined) {
      await deps.refuse(message, `not redriven: ${problem}`, deps.clock.now());
      context.warn(`dead letter refused, moved to the poison queue untouched: ${problem}`);
      return 'refused';
    }
    const state = await readState(deps, context);
    if (state !== 'CLOSED') {
      await deps.defer(message, deps.deferSeconds);
      context.log(`dead letter ${message.blobName} deferred ${deps.deferSeconds} s: circuit is ${state}`);
      return 'deferred';
    }
    const body = await deps.archive.readBody(message.blobName);
    if (body === undefined) {
      // Bodies are removed only after a successful redrive: this is a repeated delivery of that message.
      context.warn(`dead letter ${message.blobName} has no body blob: already redriven, nothing to do`);
      return 'already-redriven';
    }
    const event = toReceivedEvent(message, body);
    let reading;
    try {
      // Against the event's own enqueued time, as on the first run: a future reading is refused again.
      reading = decodeEvent(event, {
        maxFutureSkewMs: deps.maxFutureSkewMs ?? defaultMaxFutureSkewMs,
        now: () => deps.clock.now(),
      });
    } catch (error) {
      return park(deps, context, message, ensureError(error).message);
    }
    // A key's events reach the sink in sequence order: earlier pending dead letters of the partition first.
    const earlier = await redriveEarlier({ ...deps, policy }, message, context);
    if (earlier.status === 'failed') {
      throw new RedriveFailedError(
        `an earlier dead letter of partition ${message.partitionId ?? '?'} (${earlier.blobName}) still fails, ` +
          `so this one waits to keep the key's order: ${earlier.error.message}`,
        { cause: earlier.error },
      );
    }
    if (earlier.status === 'more') {
      await deps.defer(message, deps.deferSeconds);
      context.log(`dead letter ${message.blobName} deferred: earlier dead letters of its partition go first`);
      return 'deferred';
    }
    const result = await attemptWithRetry(policy, deps.deadlineMs, (signal) =>
      deps.sink.write(reading, event, signal),
    );
    if (!result.ok) {
      const error = ensureError(result.error);
      if (isPoisonEventError(error)) return park(deps, context, message, error.message);
      throw new RedriveFailedError(
        `sink still failing after ${result.attempts} attempt(s): ${boundText(error.message, 300)}`,
        {
          cause: error,
        },
      );
    }
    await deps.archive.remove(message).catch((error: unknown) => {
      context.warn(
        `redriven, but the blob ${message.blobName} was not removed: ${boundText(ensureError(error).message, 300)}`,
      );
    });
    context.log(`dead letter ${message.blobName} redriven (${result.value}, ${result.attempts} attempt(s))`);
    return 'redriven';
  };
  return async (queueItem: unknown, context: InvocationContext) => {
    await redrive(parseDeadLetterMessage(queueItem), context);
  };
}

async function readState(
  deps: RedriveDeps,
  context: InvocationContext,
): Promise<BreakerStateName | 'UNKNOWN'> {
  try {
    return (await deps.store.getState()).state;
  } catch (error) {
    context.warn(`breaker store unavailable, deferring the redrive: ${ensureError(error).message}`);
    return 'UNKNOWN';
  }
}

async function park(
  deps: RedriveDeps,
  context: InvocationContext,
  message: DeadLetterMessage,
  why: string,
): Promise<RedriveOutcome> {
  const name = await deps.archive.park(message, why, deps.clock.now());
  context.warn(`dead letter ${message.blobName} parked as ${name}, not redriven: ${boundText(why, 300)}`);
  return 'parked';
}

function toReceivedEvent(m: DeadLetterMessage, body: Buffer): ReceivedEvent {
  return {
    index: 0,
    body,
    partitionId: m.partitionId ?? undefined,
    sequenceNumber: m.sequenceNumber ?? undefined,
    offset: m.offset ?? undefined,
    enqueuedTimeUtc: m.enqueuedTimeUtc ?? undefined,
    properties: m.properties ?? {},
    systemProperties: {},
  };
}
