import type { BatchProcessor } from './batchProcessor';
import { isCircuitOpenError, isDeadLetterWriteError } from './errors';
import type { ReceivedEvent } from '../hub/receivedEvent';
import type { Clock } from '../kernel/clock';
import { emitEvent } from '../kernel/appEvent';

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
