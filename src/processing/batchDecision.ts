import type { DeadLetterReason } from '../deadLetters/deadLetter';
import { isFutureReadingError } from '../hub/errors';
import type { HoldReason } from './errors';
import type { EventOutcome } from './eventOutcome';

/**
 * What to do with outage-like failures: `hold` (default), or `dead-letter` (each failure dead-lettered
 * as it happens, the old behaviour the bench compares with).
 */
export const outagePolicies = ['hold', 'dead-letter'] as const;
export type OutagePolicy = (typeof outagePolicies)[number];

/** The settings of the hold (ISOLATE_AFTER_RERUNS, FAIL_FAST_AFTER; the policy is `hold` but in the bench). */
export interface OutageHandling {
  readonly policy: OutagePolicy;
  /** Host re-runs of the same batch before an event that fails alone is dead-lettered. */
  readonly isolateAfterReruns: number;
  /** Outage-like failures in a row after which the rest of the batch is not tried (0 = never). */
  readonly failFastAfter: number;
}

export const defaultOutageHandling: OutageHandling = {
  policy: 'hold',
  isolateAfterReruns: 3,
  failFastAfter: 3,
};

/** Where this run stands, as the decision needs it (no I/O). */
export interface RunSituation {
  readonly handling: OutageHandling;
  /** The host's re-run count of this batch (`retryContext.retryCount`; 0 on the first run). */
  readonly rerun: number;
  /** The last run a finite host retry policy allows: a throw now would move the checkpoint past it. */
  readonly finalAttempt: boolean;
  /** The downstream took a write of another event during this run (this batch or another partition). */
  readonly downstreamSeenUp: boolean;
  /** The breaker is OPEN after this batch's failures were recorded. */
  readonly circuitOpen: boolean;
}

export interface PlannedLetter {
  readonly outcome: Exclude<EventOutcome, { status: 'processed' }>;
  readonly reason: DeadLetterReason;
}

export type BatchDecision =
  | { readonly action: 'complete'; readonly letters: readonly PlannedLetter[] }
  | { readonly action: 'hold'; readonly reason: HoldReason; readonly why: string };

/**
 * Decides a run from its outcomes. Poison (a reading dated too far ahead as `future-timestamp`) and
 * failures about the event itself are always dead-lettered when the batch completes. Outage-like failures (and events not tried because of them):
 * - on the last run a finite retry policy allows: dead-lettered as `retries-exhausted` (never lost);
 * - with the `dead-letter` policy: the batch is held only while the circuit is open, else they are
 *   dead-lettered as `failed` (the old behaviour the bench compares with);
 * - while the circuit is open (after recording this batch's failures): held, so G4 holds;
 * - after `isolateAfterReruns` re-runs, when every event was tried (or waited behind a failure of its
 *   key) and the downstream took other writes during this run: they failed alone, and are dead-lettered
 *   as `isolated`;
 * - otherwise the batch is held: the host re-runs it behind the un-advanced checkpoint.
 */
export function decideBatch(outcomes: readonly EventOutcome[], s: RunSituation): BatchDecision {
  const letters: PlannedLetter[] = [];
  const held: PlannedLetter['outcome'][] = [];
  for (const o of outcomes) {
    if (o.status === 'processed') continue;
    if (o.status === 'poison')
      letters.push({ outcome: o, reason: isFutureReadingError(o.error) ? 'future-timestamp' : 'poison' });
    else if (o.status === 'failed' && o.scope === 'event') letters.push({ outcome: o, reason: 'failed' });
    else held.push(o);
  }
  const complete = (reason?: DeadLetterReason): BatchDecision => ({
    action: 'complete',
    letters: reason === undefined ? letters : [...letters, ...held.map((outcome) => ({ outcome, reason }))],
  });
  if (held.length === 0) return complete();
  if (s.finalAttempt) return complete('retries-exhausted');
  const counts = `${held.length} event(s) held`;
  if (s.handling.policy === 'dead-letter') {
    if (s.circuitOpen) return { action: 'hold', reason: 'circuit-open', why: `circuit is open: ${counts}` };
    return complete('failed');
  }
  // Once OPEN, nothing outage-like is dead-lettered (G4), not even what looks isolated.
  if (s.circuitOpen) return { action: 'hold', reason: 'circuit-open', why: `circuit is open: ${counts}` };
  // An event held behind a failure of its key (key mode) goes with that failure, in order.
  const allTried = held.every(
    (o) => o.status === 'failed' || (o.status === 'untried' && o.behind !== undefined),
  );
  if (allTried && s.downstreamSeenUp && s.rerun >= s.handling.isolateAfterReruns) return complete('isolated');
  if (s.downstreamSeenUp)
    return {
      action: 'hold',
      reason: 'failing-alone',
      why: `${counts}: outage-like failures while the downstream took other writes (re-run ${s.rerun}, dead-lettered as isolated from re-run ${s.handling.isolateAfterReruns} when every event was tried)`,
    };
  return { action: 'hold', reason: 'outage', why: `${counts}: the downstream looks down` };
}
