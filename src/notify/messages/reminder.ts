import type { EmailMessage } from '../emailSender';
import { shortTripId, SUBJECT_TAG } from './formatting';
import { renderMessage } from './renderMessage';
import { tripBlocks, type TripNoticeInput } from './tripNotice';

export interface ReminderInput extends TripNoticeInput {
  /** 1-based. */
  readonly reminderNumber: number;
  readonly maxReminders: number;
}

/** A reminder repeats the trip facts with a fresh link; after the last one the orchestration waits silently. */
export function reminder(input: ReminderInput): EmailMessage {
  const n = `${input.reminderNumber} of ${input.maxReminders}`;
  const last = input.reminderNumber >= input.maxReminders;
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} Reminder ${input.reminderNumber}/${input.maxReminders}: ${input.functionName} still stopped (trip ${shortTripId(input.trip.tripId)})`,
    title: `Reminder ${n}: ${input.functionName} is still stopped`,
    blocks: [
      {
        kind: 'paragraph',
        text: last
          ? 'This is the last reminder; the breaker keeps waiting for approval without further emails.'
          : 'The breaker is still waiting for an approval.',
      },
      ...tripBlocks(input),
    ],
  });
}
