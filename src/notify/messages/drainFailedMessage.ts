import type { EmailMessage } from './emailMessage';
import { shortTripId, SUBJECT_TAG } from './formatting';
import { renderMessage } from './renderMessage';

/**
 * Approved, but the events saved before the hub's retention could not be written yet. The trigger
 * stays disabled on purpose (G2): enabling it by hand would let newer events of a key overtake its
 * saved ones, so the email says so, and what the breaker does next.
 */
export function drainFailedMessage(input: {
  readonly to: readonly string[];
  readonly functionName: string;
  readonly tripId: string;
  readonly approvedBy: string;
  readonly message: string;
  readonly retryMinutes: number;
  readonly maxRetryMinutes: number;
  readonly probationThreshold: number;
}): EmailMessage {
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} ${input.functionName} approved; saved events not yet written (trip ${shortTripId(input.tripId)})`,
    title: `${input.functionName}: the saved events could not be written to the downstream`,
    blocks: [
      {
        kind: 'paragraph',
        text:
          "The restart was approved, but the events saved before the hub's retention could not be written to the " +
          'downstream. The trigger stays disabled while the breaker writes them again, first in ' +
          `${input.retryMinutes} min, then at most every ${input.maxRetryMinutes} min, and enables it once they ` +
          'are all written. Do not enable the trigger yourself: newer events would overtake the saved ones.',
      },
      {
        kind: 'paragraph',
        text:
          `If more than ${input.probationThreshold} events fail in the failure window while they are written, the breaker trips again ` +
          'and emails a new approval link; the saved events are written after that approval.',
      },
      {
        kind: 'facts',
        rows: [
          ['Function', input.functionName],
          ['Trip id', input.tripId],
          ['Approved by', input.approvedBy],
          ['Error', input.message],
        ],
      },
    ],
  });
}
