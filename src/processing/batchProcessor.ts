/**
 * The batch: the breaker's gate, the deadline, the events tried (`tryBatchEvents.ts`), the failures
 * recorded, then the decision (`decideBatch`, pure) to complete with dead letters or hold the batch, and
 * the telemetry of a held batch. One algorithm in one file (about 350 lines): the decision is read
 * beside the I/O around it.
 */
import type { BreakerGate, BreakerTrippedHandler } from '../breaker/breakerGate';
import type { DeadLetterReason, DeadLetterStore } from '../deadLetters/deadLetter';
import { decodeEvent } from '../hub/decodeReading';
import { isFutureReadingError } from '../hub/errors';
import { defaultMaxFutureSkewMs } from '../hub/readingTime';
import type { ReceivedEvent } from '../hub/receivedEvent';
import { emitEvent } from '../kernel/appEvent';
import { boundText } from '../kernel/boundText';
import type { Clock } from '../kernel/clock';
import { ensureError } from '../kernel/ensureError';
import type { Logger } from '../kernel/logger';
import type { ActivitySink } from '../sinks/activitySink';
import { attemptWithRetry, type EventRetryOptions, makeEventRetryPolicy } from '../sinks/eventRetry';
import {
  BatchHeldError,
  CircuitOpenError,
  type HoldReason,
  holdReasonOf,
  isCircuitOpenError,
  isDeadLetterWriteError,
} from './errors';
import {
  type EventOutcome,
  failureSamples,
  heldFailureWeight,
  logDeadLetters,
  logInvalidRequests,
  type PlannedLetter,
  plannedToDeadLetter,
  toDeadLetter,
  weighted,
  writeDeadLetters,
} from './eventOutcome';
import { defaultOrdering, type Ordering } from './ordering';
import type { PartitionProgress } from './partitionProgress';
import { makeTryBatchEvents, type WriteAttempt } from './tryBatchEvents';

/** A log line stays one short line, whatever the error quoted from the event. */
const logText = (text: string) => boundText(text, 300);

export type { EventOutcome } from './eventOutcome';

export interface BatchProcessorDeps {
  readonly functionName: string;
  readonly sink: ActivitySink;
  readonly deadLetters: DeadLetterStore;
  readonly breaker: BreakerGate;
  readonly clock: Clock;
  readonly retry: EventRetryOptions;
  readonly batchDeadlineMs: number;
  /** Hold, isolate and fail fast on outage-like failures; defaults to `defaultOutageHandling`. */
  readonly outage?: OutageHandling;
  /** Concurrent across keys, in order within a key; defaults to `defaultOrdering`. */
  readonly ordering?: Ordering;
  /** Held batches and re-runs per partition, for the status page; optional. */
  readonly progress?: PartitionProgress;
  /** The host's delay before re-run `n + 1` of a batch held on re-run `n` (weights held failures). */
  readonly nextRerunDelayMs?: (rerun: number) => number;
  /** READING_MAX_FUTURE_SKEW_SECONDS in ms: readings dated further ahead of their event are refused. */
  readonly maxFutureSkewMs?: number;
}

export interface BatchContext {
  readonly invocationId: string;
  readonly logger: Logger;
  /**
   * True on the last run a finite host retry policy allows: throwing now would let the checkpoint
   * advance, so what is still held is dead-lettered instead.
   */
  readonly finalAttempt: boolean;
  /** The host's re-run count of this batch (`retryContext.retryCount`); 0 (the first run) when absent. */
  readonly rerun?: number;
  /**
   * The "breaker tripped" seam: called when this batch's failures tripped the breaker. A failure here
   * is logged, not thrown: the watchdog starts the orchestration for an OPEN trip that has none.
   */
  readonly onTripped?: BreakerTrippedHandler;
}

export interface BatchResult {
  readonly processed: number;
  readonly deadLettered: number;
  readonly outcomes: readonly EventOutcome[];
  /** The reason of each dead letter stored, for the per-reason counts of the status page. */
  readonly letterReasons: readonly DeadLetterReason[];
}

export type BatchProcessor = (
  events: readonly ReceivedEvent[],
  context: BatchContext,
) => Promise<BatchResult>;

/**
 * The per-invocation algorithm (docs/how-it-works.md#per-invocation). Returns normally only when every event is
 * processed or dead-lettered (G1); otherwise throws BatchHeldError, CircuitOpenError or
 * DeadLetterWriteError so the host's retry policy re-runs the batch behind an un-advanced checkpoint.
 * The decision is `decideBatch` (pure); this function does the I/O around it.
 */
export function makeBatchProcessor(deps: BatchProcessorDeps): BatchProcessor {
  const policy = makeEventRetryPolicy(deps.retry);
  const oneAttempt = makeEventRetryPolicy({ ...deps.retry, maxAttempts: 1 });
  const handling = deps.outage ?? defaultOutageHandling;
  const tryEvents = makeTryBatchEvents(deps.ordering ?? defaultOrdering, deps.sink);
  const readingTime = {
    maxFutureSkewMs: deps.maxFutureSkewMs ?? defaultMaxFutureSkewMs,
    now: () => deps.clock.now(),
  };
  const decode = (event: ReceivedEvent) => decodeEvent(event, readingTime);
  // Instance-wide: a write accepted for any partition during a run is evidence the downstream is up.
  let lastSinkSuccessAt = Number.NEGATIVE_INFINITY;

  const write: WriteAttempt = async (reading, event, remainingMs, retry) => {
    const result = await attemptWithRetry(retry ? policy : oneAttempt, remainingMs, (signal) =>
      deps.sink.write(reading, event, signal),
    );
    if (!result.ok) return result;
    lastSinkSuccessAt = deps.clock.now();
    return { ok: true, applied: result.value === 'applied', attempts: result.attempts };
  };

  const run = async (events: readonly ReceivedEvent[], context: BatchContext): Promise<BatchResult> => {
    const letterContext = { ...deps, invocationId: context.invocationId, logger: context.logger };
    const gate = await deps.breaker.check();
    if (gate.open) {
      if (!context.finalAttempt) {
        throw new CircuitOpenError(
          'circuit is open: holding the batch without touching its events',
          gate.tripId,
        );
      }
      // The last run a finite host retry policy allows: throwing would advance the checkpoint and lose
      // the batch, so it is dead-lettered whole instead.
      const error = new CircuitOpenError('host retries exhausted while the circuit was open', gate.tripId);
      const letters = events.map((e) => toDeadLetter(letterContext, e, 'retries-exhausted', error, 0));
      await writeDeadLetters(letterContext, letters);
      context.logger.error(`host retries exhausted while OPEN: dead-lettered all ${letters.length} event(s)`);
      return {
        processed: 0,
        deadLettered: letters.length,
        outcomes: [],
        letterReasons: letters.map((l) => l.reason),
      };
    }

    const startedAt = deps.clock.now();
    const outcomes = await tryEvents(events, write, {
      failFastAfter: handling.failFastAfter,
      deadlineAt: startedAt + deps.batchDeadlineMs,
      now: () => deps.clock.now(),
      decode,
    });
    logInvalidRequests(context.logger, outcomes);

    const situation = {
      handling,
      rerun: context.rerun ?? 0,
      finalAttempt: context.finalAttempt,
      downstreamSeenUp: outcomes.some((o) => o.status === 'processed') || lastSinkSuccessAt >= startedAt,
      circuitOpen: false,
    };
    // Events not tried count too, and a batch held because nothing gets through counts for the time it
    // waits (`heldFailureWeight` in eventOutcome.ts): the window sees the outage as it did when every event was tried.
    const samples = failureSamples(outcomes, !situation.downstreamSeenUp);
    let decision = decideBatch(outcomes, situation);
    if (samples.length > 0) {
      const asOutage = decision.action === 'hold' && decision.reason === 'outage';
      const weight = heldFailureWeight(asOutage, deps.nextRerunDelayMs?.(situation.rerun));
      const { open, tripId, tripped, failuresInWindow } = await deps.breaker.recordFailures(
        weighted(samples, weight),
      );
      if (tripped && tripId !== undefined) await notifyTripped(context, tripId, failuresInWindow);
      if (open && handling.policy === 'dead-letter' && !context.finalAttempt) {
        throw new CircuitOpenError(
          `circuit is open after ${samples.length} failure(s) in this batch: holding the batch for a later re-run`,
          tripId,
        );
      }
      if (open) decision = decideBatch(outcomes, { ...situation, circuitOpen: true });
    }
    if (decision.action === 'hold') {
      if (decision.reason === 'circuit-open') throw new CircuitOpenError(decision.why, gate.tripId);
      throw new BatchHeldError(`holding the batch: ${decision.why}`, decision.reason);
    }

    const letters = decision.letters.map((l) => plannedToDeadLetter(letterContext, l));
    await writeDeadLetters(letterContext, letters);
    logDeadLetters(context.logger, decision.letters);
    return {
      processed: outcomes.length - letters.length,
      deadLettered: letters.length,
      outcomes,
      letterReasons: letters.map((l) => l.reason),
    };
  };

  return async (events, context) => {
    const report = (outcome: 'completed' | HoldReason, deadLettered?: readonly DeadLetterReason[]) =>
      deps.progress?.ran({
        partitionId: events[0]?.partitionId,
        firstSequence: events[0]?.sequenceNumber,
        rerun: context.rerun ?? 0,
        outcome,
        ...(deadLettered === undefined ? {} : { deadLettered }),
      });
    try {
      const result = await run(events, context);
      report('completed', result.letterReasons);
      return result;
    } catch (error) {
      const reason = holdReasonOf(error);
      if (reason !== undefined) report(reason);
      throw error;
    }
  };
}

async function notifyTripped(context: BatchContext, tripId: string, failuresInWindow: number | undefined) {
  context.logger.error(
    `circuit breaker TRIPPED (trip ${tripId}, ${failuresInWindow ?? '?'} failures in window)`,
  );
  emitEvent(context.logger, 'error', 'breakerOpened', { tripId, failuresInWindow: failuresInWindow ?? null });
  if (!context.onTripped) return;
  try {
    await context.onTripped({ tripId, failuresInWindow });
  } catch (error) {
    context.logger.error(
      `could not start the breaker orchestration for trip ${tripId}: ${logText(ensureError(error).message)}`,
    );
  }
}

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

/**
 * Wraps the batch processor: when it holds a batch (throws so the checkpoint stays), one BatchHeld
 * line says why and how long the batch's oldest event has waited since it was enqueued. The error is
 * rethrown unchanged.
 */
export function withHeldBatchTelemetry(processBatch: BatchProcessor, clock: Clock): BatchProcessor {
  return async (events, context) => {
    try {
      return await processBatch(events, context);
    } catch (error) {
      const reason = isCircuitOpenError(error)
        ? 'circuit-open'
        : isDeadLetterWriteError(error)
          ? 'dead-letter-store-down'
          : undefined;
      if (reason !== undefined)
        emitEvent(context.logger, 'warn', 'batchHeld', {
          reason,
          events: events.length,
          heldSeconds: oldestAgeSeconds(events, clock.now()),
          partitionId: events[0]?.partitionId ?? null,
        });
      throw error;
    }
  };
}

/** Seconds since the oldest event of the batch was enqueued; null when the host sent no times. */
function oldestAgeSeconds(events: readonly ReceivedEvent[], now: number): number | null {
  const times = events
    .map((e) => e.enqueuedTimeUtc)
    .filter((t): t is string => t !== undefined)
    // The host sends UTC, most likely without a zone suffix.
    .map((t) => Date.parse(/Z|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`))
    .filter((t) => !Number.isNaN(t));
  if (times.length === 0) return null;
  return Math.max(0, Math.round((now - Math.min(...times)) / 1000));
}
