import type { EventHubConsumerClient } from '@azure/event-hubs';

import { readInTurn } from './partitionTurns';

/** What the hub says about one partition (management read "com.microsoft:partition"). */
export interface PartitionFacts {
  readonly partitionId: string;
  readonly beginningSequenceNumber: number;
  readonly lastEnqueuedSequenceNumber: number;
  readonly lastEnqueuedAt: number;
  readonly isEmpty: boolean;
}

/** The reads the held-backlog view makes of the hub. */
export interface HubReader {
  partitions(abortSignal: AbortSignal): Promise<PartitionFacts[]>;
  /** Enqueued time of the event with this sequence number (the oldest one held), if it is still there. */
  enqueuedTimeOf(
    partitionId: string,
    sequenceNumber: number,
    abortSignal: AbortSignal,
  ): Promise<number | undefined>;
}

/** The reader over `@azure/event-hubs`: partition properties, and a one-event peek for the oldest age. */
export function makeEventHubReader(client: EventHubConsumerClient): HubReader {
  return {
    async partitions(abortSignal) {
      const ids = await client.getPartitionIds({ abortSignal });
      return Promise.all(
        ids.map(async (partitionId) => {
          const p = await client.getPartitionProperties(partitionId, { abortSignal });
          return {
            partitionId,
            beginningSequenceNumber: p.beginningSequenceNumber,
            lastEnqueuedSequenceNumber: p.lastEnqueuedSequenceNumber,
            lastEnqueuedAt: p.lastEnqueuedOnUtc.getTime(),
            isEmpty: p.isEmpty,
          };
        }),
      );
    },

    enqueuedTimeOf(partitionId, sequenceNumber, abortSignal) {
      // The first receive answers: one event, or none when the wait ran out (the event is gone).
      return readInTurn<number | undefined>(
        client,
        partitionId,
        { startPosition: { sequenceNumber, isInclusive: true }, maxBatchSize: 1, maxWaitTimeInSeconds: 3 },
        (events) => ({ done: true, value: events[0]?.enqueuedTimeUtc.getTime() }),
        abortSignal,
      );
    },
  };
}
