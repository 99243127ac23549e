import type { Clock } from '../time/clock';
import type { ActivitySink } from './activitySink';
import type { BreakerGate, BreakerTrippedHandler, FailureSample } from './breakerGate';
import { classifyError } from './classifyError';
import type { DeadLetter, DeadLetterReason, DeadLetterStore } from './deadLetter';
import { decodeReading } from './decodeReading';
import { telemetryLine } from '../telemetry/telemetryNames';
import { CircuitOpenError, DeadLetterWriteError, ensureError, isPoisonEventError } from './errors';
import { attemptWithRetry, type EventRetryOptions, makeEventRetryPolicy } from './eventRetry';
import type { Logger } from './logger';
import { eventKey, type ReceivedEvent } from './receivedEvent';

export interface BatchProcessorDeps {
  readonly functionName: string;
  readonly sink: ActivitySink;
  readonly deadLetters: DeadLetterStore;
  readonly breaker: BreakerGate;
  readonly clock: Clock;
  readonly retry: EventRetryOptions;
  readonly batchDeadlineMs: number;
}

export interface BatchContext {
  readonly invocationId: string;
  readonly logger: Logger;
  /**
   * True on the last run a finite host retry policy allows: throwing now would let the checkpoint
   * advance, so failures are dead-lettered even while the circuit is open.
   */
  readonly finalAttempt: boolean;
  /**
   * The "breaker tripped" seam: called when this batch's failures tripped the breaker. A failure here
   * is logged, not thrown: the watchdog starts the orchestration for an OPEN trip that has none.
   */
  readonly onTripped?: BreakerTrippedHandler;
}

export type EventOutcome =
  | {
      readonly status: 'processed';
      readonly event: ReceivedEvent;
      readonly applied: boolean;
      readonly attempts: number;
    }
  | { readonly status: 'poison'; readonly event: ReceivedEvent; readonly error: Error }
  | {
      readonly status: 'failed';
      readonly event: ReceivedEvent;
      readonly error: Error;
      readonly attempts: number;
    };

export interface BatchResult {
  readonly processed: number;
  readonly deadLettered: number;
  readonly outcomes: readonly EventOutcome[];
}

export type BatchProcessor = (
  events: readonly ReceivedEvent[],
  context: BatchContext,
) => Promise<BatchResult>;

/**
 * The per-invocation algorithm of design section 4. Returns normally only when every event is
 * processed or dead-lettered (G1); otherwise throws CircuitOpenError or DeadLetterWriteError so the
 * host's retry policy holds the batch behind an un-advanced checkpoint.
 */
export function makeBatchProcessor(deps: BatchProcessorDeps): BatchProcessor {
  const policy = makeEventRetryPolicy(deps.retry);

  const processOne = async (event: ReceivedEvent, deadlineAt: number): Promise<EventOutcome> => {
    let reading;
    try {
      reading = decodeReading(event.body);
    } catch (error) {
      return { status: 'poison', event, error: ensureError(error) };
    }
    const remainingMs = deadlineAt - deps.clock.now();
    if (remainingMs <= 0) {
      return {
        status: 'failed',
        event,
        error: new Error('batch deadline passed before this event was tried'),
        attempts: 0,
      };
    }
    const result = await attemptWithRetry(policy, remainingMs, (signal) =>
      deps.sink.write(reading, event, signal),
    );
    if (result.ok)
      return { status: 'processed', event, applied: result.value === 'applied', attempts: result.attempts };
    const error = ensureError(result.error);
    // The sink calling the event itself invalid is a poison event, not an outage.
    if (isPoisonEventError(error)) return { status: 'poison', event, error };
    return { status: 'failed', event, error, attempts: result.attempts };
  };

  return async (events, context) => {
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
      const letters = events.map((e) => toDeadLetter(deps, context, e, 'retries-exhausted', error, 0));
      await writeDeadLetters(deps, letters, context);
      context.logger.error(`host retries exhausted while OPEN: dead-lettered all ${letters.length} event(s)`);
      return { processed: 0, deadLettered: letters.length, outcomes: [] };
    }

    const deadlineAt = deps.clock.now() + deps.batchDeadlineMs;
    const outcomes: EventOutcome[] = [];
    // In order: within a partition, processed events must reach the sink in sequence order (G2).
    for (const event of events) outcomes.push(await processOne(event, deadlineAt));

    const failed = outcomes.filter((o) => o.status === 'failed');
    const poison = outcomes.filter((o) => o.status === 'poison');
    if (failed.length > 0) {
      const samples: FailureSample[] = failed.map((o) => ({
        eventKey: eventKey(o.event),
        kind: classifyError(o.error),
        message: o.error.message,
      }));
      const { open, tripId, tripped, failuresInWindow } = await deps.breaker.recordFailures(samples);
      if (tripped && tripId !== undefined) await notifyTripped(context, tripId, failuresInWindow);
      if (open && !context.finalAttempt) {
        throw new CircuitOpenError(
          `circuit is open after ${failed.length} failure(s) in this batch: holding the batch for a later re-run`,
          tripId,
        );
      }
    }

    const letters = [
      ...poison.map((o) => toDeadLetter(deps, context, o.event, 'poison', o.error, 0)),
      ...failed.map((o) => toDeadLetter(deps, context, o.event, 'failed', o.error, o.attempts)),
    ];
    await writeDeadLetters(deps, letters, context);
    for (const o of poison)
      context.logger.warn(`dead-lettered poison event ${eventKey(o.event)}: ${o.error.message}`);
    for (const o of failed) {
      context.logger.warn(
        `dead-lettered failed event ${eventKey(o.event)} after ${o.attempts} attempt(s): ${o.error.message}`,
      );
    }
    return { processed: outcomes.length - letters.length, deadLettered: letters.length, outcomes };
  };
}

async function notifyTripped(context: BatchContext, tripId: string, failuresInWindow: number | undefined) {
  context.logger.error(
    `circuit breaker TRIPPED (trip ${tripId}, ${failuresInWindow ?? '?'} failures in window)`,
  );
  context.logger.error(
    telemetryLine('breakerOpened', { tripId, failuresInWindow: failuresInWindow ?? null }),
  );
  if (!context.onTripped) return;
  try {
    await context.onTripped({ tripId, failuresInWindow });
  } catch (error) {
    context.logger.error(
      `could not start the breaker orchestration for trip ${tripId}: ${ensureError(error).message}`,
    );
  }
}

async function writeDeadLetters(
  deps: BatchProcessorDeps,
  letters: readonly DeadLetter[],
  context: BatchContext,
) {
  if (letters.length === 0) return;
  try {
    await deps.deadLetters.write(letters);
  } catch (error) {
    const cause = ensureError(error);
    context.logger.error(`dead-letter store failed, holding the batch: ${cause.message}`);
    throw new DeadLetterWriteError(`could not store ${letters.length} dead letter(s): ${cause.message}`, {
      cause,
    });
  }
}

function toDeadLetter(
  deps: BatchProcessorDeps,
  context: BatchContext,
  event: ReceivedEvent,
  reason: DeadLetterReason,
  error: Error,
  attempts: number,
): DeadLetter {
  const code = (error as { code?: unknown }).code;
  return {
    event,
    functionName: deps.functionName,
    reason,
    error: { name: error.name, code: typeof code === 'string' ? code : undefined, message: error.message },
    attempts,
    deadLetteredAt: new Date(deps.clock.now()).toISOString(),
    invocationId: context.invocationId,
  };
}
