import type { InvocationContext } from '@azure/functions';

import type { BreakerPhase } from './breakerStatus';

/** What the breaker orchestration of one trip is doing, read from its custom status. */
export interface OrchestrationView {
  /** Custom status phase; undefined when the status is not one of ours. */
  readonly phase: BreakerPhase | undefined;
  /** Durable runtime status, e.g. 'Running', 'Completed'. */
  readonly runtimeStatus: string;
  /** Set by the orchestration once it has received an approval. */
  readonly approvedBy?: string;
}

/**
 * The HTTP functions' view of the breaker orchestration (port). The durable client is bound per
 * invocation, so the adapter is created from the invocation context.
 */
export interface OrchestrationControl {
  /** The orchestration of this trip, or undefined when there is none. */
  view(tripId: string): Promise<OrchestrationView | undefined>;
  /**
   * Raises `Approval` for this trip on its orchestration, unless it is gone or already past the wait
   * (checked again right before raising: the page's own check may be a moment old).
   */
  raiseApproval(
    tripId: string,
    approvedBy: string,
  ): Promise<{ ok: true } | { ok: false; refusal: 'already-approved' | 'not-waiting' }>;
  /**
   * Ends the trip's orchestration if it still runs (a forced reset supersedes it). True when one was
   * ended, false when there was none or it had finished.
   */
  end(tripId: string, reason: string): Promise<boolean>;
  /** Starts the orchestration for a trip (idempotently), as the processing trigger does when it trips. */
  start(tripId: string): Promise<{ instanceId: string; started: boolean }>;
}

export type OrchestrationControlFactory = (context: InvocationContext) => OrchestrationControl;
