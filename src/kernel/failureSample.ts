/** A failure reported to the shared window. */
export interface FailureSample {
  readonly eventKey: string;
  readonly kind: 'transient' | 'permanent';
  readonly message: string;
}

/** How many failures a trip record keeps, and how much of each message: records stay small. */
export const SAMPLE_SIZE = 5;
const MESSAGE_LENGTH = 200;

/** The newest few failures, messages truncated: what a trip record and its email show. */
export function sampleOf(failures: readonly FailureSample[]): FailureSample[] {
  return failures.slice(-SAMPLE_SIZE).map((f) => ({
    eventKey: f.eventKey,
    kind: f.kind,
    message: f.message.length > MESSAGE_LENGTH ? `${f.message.slice(0, MESSAGE_LENGTH)}…` : f.message,
  }));
}
