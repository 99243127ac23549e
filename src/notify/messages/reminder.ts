import type { HeldBacklog } from '../../hub/heldBacklog';
import type { EmailMessage } from './emailMessage';
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
    subject: `${SUBJECT_TAG} Reminder ${input.reminderNumber}/${input.maxReminders}: ${input.functionName} still stopped (trip ${shortTripId(input.trip.tripId)})${deadline(input.held, input.now ?? input.trip.openedAt)}`,
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

/**
 * The deadline in the subject, so the reminders escalate as it nears: the hours left before the hub
 * drops the oldest held event, and once the retention guard's margin is reached, that it is saving them.
 */
function deadline(held: HeldBacklog | undefined, now: number): string {
  if (held?.known !== true || held.total === 0 || held.retentionEndsAt === undefined) return '';
  const left = held.retentionEndsAt - now;
  if (left <= 0) return ': retention may be dropping held events';
  const span =
    left >= 3_600_000 ? `${Math.floor(left / 3_600_000)} h` : `${Math.max(1, Math.floor(left / 60_000))} min`;
  const saving = held.guardSavesAt !== undefined && held.guardSavesAt <= now;
  return `: first loss in ${span}${saving ? ', the retention guard is saving the held events' : ''}`;
}
