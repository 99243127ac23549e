import type { TripRecord } from '../../breaker/breakerStore';
import type { TriggerSwitchOutcome } from '../../control/triggerSwitchOutcome';
import { describeBacklog } from '../../hub/describeBacklog';
import type { HeldBacklog } from '../../hub/heldBacklog';
import { describeDownstream } from '../../sinks/describeDownstream';
import { formatTime } from '../../web/formatting';
import type { EmailMessage } from './emailMessage';
import { describeSwitchOutcome, formatSamples, shortTripId, SUBJECT_TAG } from './formatting';
import type { Block } from './messageDocument';
import { renderMessage } from './renderMessage';

export interface TripNoticeInput {
  readonly to: readonly string[];
  readonly functionName: string;
  readonly trip: TripRecord;
  /** Dead letters stored so far; undefined when the count could not be read. */
  readonly deadLetterCount: number | undefined;
  readonly switchOutcome: TriggerSwitchOutcome;
  /** Built with `approvalLink`; the only credential in the message, valid until `linkExpiresAt`. */
  readonly approvalUrl: string;
  readonly linkExpiresAt: number;
  /** What the hub holds behind the checkpoints, when it was read. */
  readonly held?: HeldBacklog | undefined;
  /** Time of sending, for ages and the time left before retention. */
  readonly now?: number;
}

/** The first email of a trip: what stopped, why, and the link that restarts it. */
export function tripNotice(input: TripNoticeInput): EmailMessage {
  return renderMessage({
    to: input.to,
    subject: `${SUBJECT_TAG} ${input.functionName} stopped: approval needed (trip ${shortTripId(input.trip.tripId)})`,
    title: `${input.functionName} was stopped by the circuit breaker`,
    blocks: tripBlocks(input),
  });
}

/** Shared with the reminder, which repeats the same facts. */
export function tripBlocks(input: TripNoticeInput): Block[] {
  const { trip } = input;
  return [
    {
      kind: 'paragraph',
      text:
        'Event processing is paused: no events are lost, they wait in the Event Hub behind the last checkpoint. ' +
        'Fix the downstream problem, then approve the restart.',
    },
    {
      kind: 'facts',
      rows: [
        ['Function', input.functionName],
        ['Trip id', trip.tripId],
        ['Tripped at', formatTime(trip.openedAt)],
        ['Cause', trip.cause === 'manual' ? `manual${trip.reason ? ` (${trip.reason})` : ''}` : trip.cause],
        ['Failures in window', String(trip.failuresInWindow)],
        [
          'Dead letters',
          input.deadLetterCount === undefined ? 'unknown (count unavailable)' : String(input.deadLetterCount),
        ],
        ['Downstream', describeDownstream(trip.probe)],
        ['Held in the hub', describeBacklog(input.held, input.now ?? trip.openedAt)],
      ],
    },
    { kind: 'paragraph', text: describeSwitchOutcome(input.functionName, input.switchOutcome) },
    { kind: 'list', heading: 'Recent errors (newest last)', items: formatSamples(trip.sample) },
    {
      kind: 'link',
      label: 'Review and approve the restart',
      url: input.approvalUrl,
      note:
        `The link opens a confirmation page (opening it changes nothing) and expires at ${formatTime(input.linkExpiresAt)}. ` +
        'It only restarts this trip.',
    },
  ];
}
