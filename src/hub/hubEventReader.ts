import type { EventHubConsumerClient, ReceivedEventData } from '@azure/event-hubs';

import { readInTurn } from './partitionTurns';
import type { ReceivedEvent } from './receivedEvent';

/** Reads waiting events themselves (bodies and all), for the retention guard to save them. */
export interface HubEventReader {
  /**
   * Up to `max` events of the partition from `fromSequence` on (inclusive), in sequence order; fewer when
   * the partition ends sooner. Events already past retention are not there: the first one returned may
   * have a higher sequence number than asked for.
   */
  read(
    partitionId: string,
    fromSequence: number,
    max: number,
    abortSignal: AbortSignal,
  ): Promise<ReceivedEvent[]>;
}

/** How long one receive waits for more events before the read returns what it has. */
const WAIT_SECONDS = 2;

/** The reader over `@azure/event-hubs`: one subscription per read, in turn, closed when it has enough. */
export function makeHubEventReader(client: () => EventHubConsumerClient): HubEventReader {
  return {
    read(partitionId, fromSequence, max, abortSignal) {
      const out: ReceivedEvent[] = [];
      return readInTurn<ReceivedEvent[]>(
        client(),
        partitionId,
        {
          startPosition: { sequenceNumber: fromSequence, isInclusive: true },
          maxBatchSize: Math.min(max, 500),
          maxWaitTimeInSeconds: WAIT_SECONDS,
          // The bytes as sent: the processing path decodes them itself.
          skipParsingBodyAsJson: true,
        },
        (events) => {
          for (const e of events) if (out.length < max) out.push(toReceived(partitionId, e, out.length));
          // An empty batch is the wait running out: the partition has nothing more right now.
          return events.length === 0 || out.length >= max ? { done: true, value: out } : { done: false };
        },
        abortSignal,
      );
    },
  };
}

function toReceived(partitionId: string, e: ReceivedEventData, index: number): ReceivedEvent {
  const body = Buffer.isBuffer(e.body)
    ? e.body
    : e.body instanceof Uint8Array
      ? Buffer.from(e.body)
      : Buffer.from(typeof e.body === 'string' ? e.body : JSON.stringify(e.body));
  return {
    index,
    body,
    partitionId,
    sequenceNumber: e.sequenceNumber,
    offset: e.offset,
    enqueuedTimeUtc: e.enqueuedTimeUtc.toISOString(),
    properties: e.properties ?? {},
    systemProperties: {
      ...(e.systemProperties ?? {}),
      ...(e.partitionKey === null ? {} : { PartitionKey: e.partitionKey }),
    },
  };
}
