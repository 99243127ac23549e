import { formatTime } from '../../web/formatting';
import type { EmailMessage } from './emailMessage';
import { shortTripId, SUBJECT_TAG } from './formatting';
import { renderMessage } from './renderMessage';

export interface TriggerRepairedInput {
  readonly to: readonly string[];
  readonly functionName: string;
  /** Undefined when the store knows no trip (a stray form on a fresh store, or one Redis emptied). */
  readonly tripId: string | undefined;
  readonly repairedAt: number;
  /** The settings (`name=value`) that disabled the trigger, as found. */
  readonly disabledBy: readonly string[];
}

/** Sent when the watchdog found the breaker CLOSED with the trigger still disabled, and enabled it. */
export function triggerRepaired(input: TriggerRepairedInput): EmailMessage {
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} ${input.functionName} trigger re-enabled by the watchdog${input.tripId === undefined ? '' : ` (trip ${shortTripId(input.tripId)})`}`,
    title: `${input.functionName} was closed but its trigger was disabled`,
    blocks: [
      {
        kind: 'paragraph',
        text:
          'The breaker was CLOSED after this trip, yet the trigger was still disabled (for example a ' +
          'disable that landed after a forced reset, or a form of the switch someone else set). Nothing ' +
          'would have switched it on again, so the ' +
          `watchdog enabled it at ${formatTime(input.repairedAt)}. Processing resumes from the checkpoint.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Function', input.functionName],
          ['Trip id', input.tripId ?? 'none (the breaker store knows no trip)'],
          ['Disabled by', input.disabledBy.join(', ')],
        ],
      },
    ],
  });
}
