import type { TriggerSwitchOutcome } from '../../control/triggerSwitchOutcome';
import type { FailureSample } from '../../kernel/failureSample';
import { redactSecrets } from '../../kernel/redactSecrets';

/** Subjects stay short: the product tag, what happened, and a trip id short enough to scan. */
export const SUBJECT_TAG = '[Breakwater]';
const MAX_SAMPLES = 10;
const MAX_SAMPLE_CHARS = 300;

/** "[Breakwater · prod-eu] …": the deployment right after the product tag. */
export function withEnvironmentTag(subject: string, environmentName: string): string {
  const name = environmentName.replace(/[\r\n\t\]]+/g, ' ').trim();
  return subject.startsWith(SUBJECT_TAG)
    ? `${SUBJECT_TAG.slice(0, -1)} · ${name}]${subject.slice(SUBJECT_TAG.length)}`
    : `[${name}] ${subject}`;
}

export function shortTripId(tripId: string): string {
  // Trip ids are `t<epoch ms>-<random hex>`: the random tail tells two trips apart, the time does not.
  return tripId.length <= 12 ? tripId : tripId.slice(-8);
}

/** Newest last, bounded in count and length, secrets masked. */
export function formatSamples(sample: readonly FailureSample[]): string[] {
  return sample.slice(-MAX_SAMPLES).map((s) => {
    const message = redactSecrets(s.message.replace(/\s+/g, ' '));
    const clipped = message.length > MAX_SAMPLE_CHARS ? `${message.slice(0, MAX_SAMPLE_CHARS)}…` : message;
    return `${s.eventKey} (${s.kind}): ${clipped}`;
  });
}

export function describeSwitchOutcome(functionName: string, outcome: TriggerSwitchOutcome): string {
  const verb = outcome.disabled ? 'disabled' : 're-enabled';
  switch (outcome.kind) {
    case 'switched':
      return `The trigger was ${verb} through Azure Resource Manager (AzureWebJobs.${functionName}.Disabled=${String(outcome.disabled)}), verified by reading it back.`;
    case 'soft':
      return outcome.disabled
        ? 'No ARM control here (local mode): the trigger stays registered and the soft OPEN state holds the stream; checkpoints do not advance.'
        : 'No ARM control here (local mode): processing resumes as the breaker leaves OPEN.';
    case 'failed':
      return (
        `The trigger could NOT be ${verb} (${outcome.code}): ${redactSecrets(outcome.message)}` +
        (outcome.disabled ? ' The soft OPEN state still holds the stream meanwhile.' : '')
      );
  }
}
