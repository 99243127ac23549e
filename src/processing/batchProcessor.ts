import { emitEvent } from '../kernel/appEvent';
import { boundText } from '../kernel/boundText';
import type { Clock } from '../kernel/clock';
import type { ActivitySink } from '../sinks/activitySink';
import { decideBatch, defaultOutageHandling, type OutageHandling } from './batchDecision';
import { plannedToDeadLetter, toDeadLetter, writeDeadLetters } from './batchDeadLetters';
import {
  failureSamples,
  heldFailureWeight,
  logDeadLetters,
  logInvalidRequests,
  weighted,
} from './batchFailures';
import type { BreakerGate, BreakerTrippedHandler } from '../breaker/breakerGate';
import type { DeadLetterReason, DeadLetterStore } from '../deadLetters/deadLetter';
import { BatchHeldError, CircuitOpenError, type HoldReason, holdReasonOf } from './errors';
import { ensureError } from '../kernel/ensureError';
import type { EventOutcome } from './eventOutcome';
import { attemptWithRetry, type EventRetryOptions, makeEventRetryPolicy } from '../sinks/eventRetry';
import type { Logger } from '../kernel/logger';
import { defaultOrdering, type Ordering } from './ordering';
import type { PartitionProgress } from './partitionProgress';
import type { ReceivedEvent } from '../hub/receivedEvent';
import { decodeEvent } from '../hub/decodeReading';
import { defaultMaxFutureSkewMs } from '../hub/readingTime';
import { makeTryBatchEvents } from './tryBatchEvents';
import type { WriteAttempt } from './tryEventsInOrder';

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
 * The per-invocation algorithm (README "How it works"). Returns normally only when every event is
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
    // waits (batchFailures.ts): the window sees the outage as it did when every event was tried.
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
