import { formatTime } from '../../web/formatting';
import type { EmailMessage } from './emailMessage';
import { shortTripId, SUBJECT_TAG } from './formatting';
import { renderMessage } from './renderMessage';

export interface ClosedInput {
  readonly to: readonly string[];
  readonly functionName: string;
  readonly tripId: string;
  readonly closedAt: number;
}

/** Sent when probation passes quietly and the breaker is CLOSED again. */
export function closed(input: ClosedInput): EmailMessage {
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} ${input.functionName} back to normal (trip ${shortTripId(input.tripId)} closed)`,
    title: `${input.functionName} is back to normal`,
    blocks: [
      {
        kind: 'paragraph',
        text: `Probation passed without tripping again; the breaker closed at ${formatTime(input.closedAt)}.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Function', input.functionName],
          ['Trip id', input.tripId],
        ],
      },
    ],
  });
}
