import type { TriggerSwitchOutcome } from '../../control/triggerSwitchOutcome';
import { formatDuration, formatTime } from '../../web/formatting';
import type { EmailMessage } from './emailMessage';
import { describeSwitchOutcome, shortTripId, SUBJECT_TAG } from './formatting';
import { renderMessage } from './renderMessage';

export interface ResumedInput {
  readonly to: readonly string[];
  readonly functionName: string;
  readonly tripId: string;
  readonly approvedBy: string;
  readonly approvedAt: number;
  readonly switchOutcome: TriggerSwitchOutcome;
  readonly probation: { readonly seconds: number; readonly threshold: number };
}

/** Sent after approval: who approved, and the probation that follows (HALF_OPEN). */
export function resumed(input: ResumedInput): EmailMessage {
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} ${input.functionName} resumed, on probation (trip ${shortTripId(input.tripId)})`,
    title: `${input.functionName} resumed after approval`,
    blocks: [
      {
        kind: 'facts',
        rows: [
          ['Function', input.functionName],
          ['Trip id', input.tripId],
          ['Approved by', input.approvedBy],
          ['Approved at', formatTime(input.approvedAt)],
        ],
      },
      { kind: 'paragraph', text: describeSwitchOutcome(input.functionName, input.switchOutcome) },
      {
        kind: 'paragraph',
        text:
          `Processing continues from the last checkpoint, in order. For the next ${formatDuration(input.probation.seconds * 1000)} ` +
          `the breaker is on probation: more than ${input.probation.threshold} failures stop it again.`,
      },
    ],
  });
}
