import type { ActivitySink } from '../sinks/activitySink';
import type { EventOutcome } from './eventOutcome';
import { type Ordering, orderingKeyOf } from './ordering';
import type { ReceivedEvent } from '../hub/receivedEvent';
import { tryEventsByKey } from './tryEventsByKey';
import { type InOrderOptions, tryEventsInOrder, type WriteAttempt } from './tryEventsInOrder';

/** Tries a batch's events in the order the setting asks for (issue 15). */
export function makeTryBatchEvents(
  ordering: Ordering,
  sink: Pick<ActivitySink, 'orderingKey' | 'readingVersion' | 'writeGroup'>,
) {
  const keyOf = orderingKeyOf(ordering, sink);
  const versionOf = sink.readingVersion?.bind(sink);
  const groupOf = sink.writeGroup?.bind(sink);
  return (
    events: readonly ReceivedEvent[],
    write: WriteAttempt,
    options: InOrderOptions,
  ): Promise<EventOutcome[]> =>
    keyOf
      ? tryEventsByKey(events, write, {
          ...options,
          concurrency: ordering.concurrency,
          keyOf,
          ...(versionOf ? { versionOf } : {}),
          ...(groupOf ? { groupOf } : {}),
        })
      : tryEventsInOrder(events, write, options);
}
