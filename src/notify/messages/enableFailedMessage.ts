import type { EmailMessage } from './emailMessage';
import { shortTripId, SUBJECT_TAG } from './formatting';
import { renderMessage } from './renderMessage';

/** Approval arrived but the trigger could not be switched back on: an operator has to act. */
export function enableFailedMessage(input: {
  readonly to: readonly string[];
  readonly functionName: string;
  readonly tripId: string;
  readonly approvedBy: string;
  readonly message: string;
}): EmailMessage {
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} ${input.functionName} approved but NOT restarted (trip ${shortTripId(input.tripId)})`,
    title: `${input.functionName} could not be re-enabled`,
    blocks: [
      {
        kind: 'paragraph',
        text:
          'The restart was approved and the breaker is on probation, but switching the trigger back on failed. ' +
          `Set AzureWebJobs.${input.functionName}.Disabled to false by hand once the cause is fixed.`,
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
