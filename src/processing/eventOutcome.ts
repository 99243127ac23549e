import type { FailureScope } from '../sinks/classifyError';
import type { ReceivedEvent } from '../hub/receivedEvent';

/** What happened to one event of a batch on this run. */
export type EventOutcome =
  | {
      readonly status: 'processed';
      readonly event: ReceivedEvent;
      readonly applied: boolean;
      readonly attempts: number;
      /**
       * Key mode (issue 15): not written because a later reading of its key in this batch superseded
       * it (the event key of that reading), which was written; `applied` is false, `attempts` 0.
       */
      readonly supersededBy?: string;
    }
  | { readonly status: 'poison'; readonly event: ReceivedEvent; readonly error: Error }
  | {
      readonly status: 'failed';
      readonly event: ReceivedEvent;
      readonly error: Error;
      readonly attempts: number;
      /** `outage`: any event would fail alike (hold); `event`: this event was refused (dead-letter). */
      readonly scope: FailureScope;
    }
  /** Not tried on this run: the batch failed fast, or its deadline passed. Held like an outage failure. */
  | {
      readonly status: 'untried';
      readonly event: ReceivedEvent;
      readonly why: string;
      /**
       * Key mode (issue 15): not tried because an earlier event of its key failed outage-like on this
       * run (the event key of that failure); it is held, or dead-lettered, together with it, in order.
       */
      readonly behind?: string;
    };
